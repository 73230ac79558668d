"""The wire <-> core layer, shared by the server, the typed client and the CLI.

One module per job: ``enums`` (core enums <-> proto enums, by name), ``details`` (a game's
result detail <-> its proto message, field by field, read from the dataclass and the
descriptor), ``requests`` (request messages read and checked into the core's requests),
``request_limits`` (the size limits every list and string of a request keeps),
``replies`` (the core's results as reply messages, and back), ``status``
(``google.rpc.Status`` with its BadRequest violations, written and read) and
``batch_reply`` (the ``EvaluateBatchResponse`` bytes, written and read).

It imports the core and the generated code, never ``service.server`` or
``service.client`` (``tests/test_lint.py``): the CLI answers in process through the same
conversions the server uses, without loading the server.
"""
