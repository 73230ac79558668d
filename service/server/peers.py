"""Which client a costly call is charged to: the peer of the cost lane's share
(``CostAdmission``, ``--peer-share``).

Straight at the server a client is its connection, ``context.peer()``. Behind the HTTP/2
front (nghttpx, ``front/nghttpx.conf``) every client's calls arrive over the front's few
connections, so ``context.peer()`` is the front and one client could hold the whole share.
The front names each client connection in a ``forwarded`` header (RFC 7239;
``add-forwarded=for`` with ``forwarded-for=obfuscated``: a random id per client connection)
and drops any a client sent itself (``strip-incoming-forwarded=yes``). With
``--peer-from-forwarded`` the peer is that header's ``for=`` value. Trust it only behind
such a front: a client calling the server directly could name itself anew on every call
and so get a share per name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FORWARDED = "forwarded"
"""The metadata key of the ``Forwarded`` header (HTTP/2 header names are lower case)."""
MAX_NODE_CHARS = 128
"""The longest ``for=`` value taken as a client's name: an IPv6 address with a port is 47,
nghttpx's obfuscated ids 9 (``_`` and 8 letters or digits)."""
NODE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:[]")
"""RFC 7239's ``node``: an IPv4 address, ``[IPv6]``, ``unknown`` or an obfuscated ``_id``,
each with an optional ``:port``."""
PREFIX = "forwarded for="
"""Before a client's name in the peer key, so no name can be one of ``context.peer()``'s."""

PeerOf = Callable[[Any], str]
"""A call's context (``grpc.aio.ServicerContext``) to the peer it is charged to."""


def forwarded_for(value: str) -> str | None:
    """The ``for=`` node of the last element of a ``Forwarded`` header's ``value`` (the one
    the nearest proxy, the front, appended), unquoted; None when that element has none or
    it is not a node (RFC 7239: ``for=_hidden``, ``for="[2001:db8::1]:4711"``). Never
    raises: a malformed header is no name."""
    element = value.rpartition(",")[2]
    for pair in element.split(";"):
        name, equals, node = pair.partition("=")
        if not equals or name.strip().lower() != "for":
            continue
        node = node.strip()
        if len(node) >= 2 and node[0] == node[-1] == '"':
            node = node[1:-1]
        if 0 < len(node) <= MAX_NODE_CHARS and NODE_CHARS.issuperset(node):
            return node
        return None
    return None


def connection_peer(context: Any) -> str:
    """The call's connection: ``context.peer()`` (straight at the server)."""
    peer: str = context.peer()
    return peer


def forwarded_peer(context: Any) -> str:
    """The client the front named in the call's last ``forwarded`` header, else the call's
    connection (no header, or one that names no node). Read only for calls that reserve
    a cost, so cheap calls never pay for it."""
    value = None
    for key, item in context.invocation_metadata() or ():
        if key == FORWARDED:
            value = item
    node = forwarded_for(value) if isinstance(value, str) else None
    return connection_peer(context) if node is None else PREFIX + node


def peer_of(from_forwarded: bool) -> PeerOf:
    """How calls are charged (``--peer-from-forwarded``): by the front's ``forwarded``
    header when on, by connection when off."""
    return forwarded_peer if from_forwarded else connection_peer
