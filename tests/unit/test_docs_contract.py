"""docs/api.md states the contract the code serves: its message tables are the descriptor's
fields with their types, its RPC table the service's methods, the enum values it lists the
enums', each message or enum it names in backticks one the contract has, and its limits the
values the server sets. Each test parses the page and compares it with the code."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from handeval_client.gen.handeval.v1 import handeval_pb2 as contract

from evaluators.batch import MAX_ROW_BYTES
from service.server.config import Settings
from service.server.limits import message_limits, pool_slots
from service.wire import request_limits

ROOT = Path(__file__).resolve().parents[2]
API = (ROOT / "docs" / "api.md").read_text()
FILE = contract.DESCRIPTOR
PACKAGE = FILE.package + "."
SERVICE = FILE.services_by_name["HandEvaluator"]
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
TICKED = re.compile(r"`([^`\n]+)`")

SCALARS = {
    FieldDescriptor.TYPE_DOUBLE: "double",
    FieldDescriptor.TYPE_FLOAT: "float",
    FieldDescriptor.TYPE_INT64: "int64",
    FieldDescriptor.TYPE_UINT64: "uint64",
    FieldDescriptor.TYPE_INT32: "int32",
    FieldDescriptor.TYPE_FIXED64: "fixed64",
    FieldDescriptor.TYPE_FIXED32: "fixed32",
    FieldDescriptor.TYPE_BOOL: "bool",
    FieldDescriptor.TYPE_STRING: "string",
    FieldDescriptor.TYPE_BYTES: "bytes",
    FieldDescriptor.TYPE_UINT32: "uint32",
    FieldDescriptor.TYPE_SFIXED32: "sfixed32",
    FieldDescriptor.TYPE_SFIXED64: "sfixed64",
    FieldDescriptor.TYPE_SINT32: "sint32",
    FieldDescriptor.TYPE_SINT64: "sint64",
}
EXTERNAL_NAMES = {"BadRequest"}
"""Names api.md gives in backticks that are not the contract's own: google.rpc's detail."""


def _short(full_name: str) -> str:
    return full_name.removeprefix(PACKAGE)


def spelled(field: FieldDescriptor) -> str:
    """A field's type as a .proto file spells it: ``repeated Spread``, ``google.rpc.Status``."""
    if field.message_type is not None:
        name = _short(field.message_type.full_name)
    elif field.enum_type is not None:
        name = _short(field.enum_type.full_name)
    else:
        name = SCALARS[field.type]
    return f"repeated {name}" if field.is_repeated else name


def documented_type(field: FieldDescriptor) -> str:
    """The type cell api.md gives a field: its type, and its oneof when it is in one."""
    oneof = field.containing_oneof
    return f"{spelled(field)}, oneof {oneof.name}" if oneof is not None else spelled(field)


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _ticked(cell: str) -> str:
    """A cell's text with its backticks dropped: "`PointsDetail`, oneof `detail`"."""
    return cell.replace("`", "")


def message_tables(text: str) -> dict[str, dict[str, str]]:
    """Each message's fields and their type cells, from every table with a field and a type
    column. The message is the table's ``message`` column, the name before ``field`` in its
    header (`` `GameInfo` field``), or else the first name in the heading above it."""
    documented: dict[str, dict[str, str]] = {}
    heading = ""
    lines = FENCE.sub("", text).splitlines()
    for number, line in enumerate(lines):
        if line.startswith("#"):
            heading = line
        if not line.startswith("|") or number + 1 >= len(lines):
            continue
        if not lines[number + 1].startswith("| ---") or (
            number and lines[number - 1].startswith("|")
        ):
            continue
        header = [_ticked(cell) for cell in _cells(line)]
        if "type" not in header or not any(cell.endswith("field") for cell in header):
            continue
        field_column = next(i for i, cell in enumerate(header) if cell.endswith("field"))
        type_column = header.index("type")
        named = header[field_column].removesuffix("field").strip()
        if not named and "message" not in header:
            match = TICKED.search(heading)
            assert match, f"a field table under {heading!r} names no message"
            named = match.group(1)
        for row in lines[number + 2 :]:
            if not row.startswith("|"):
                break
            cells = _cells(row)
            message = _ticked(cells[header.index("message")]) if "message" in header else named
            field = _ticked(cells[field_column])
            assert field not in documented.setdefault(message, {}), f"{message}.{field} twice"
            documented[message][field] = _ticked(cells[type_column])
    return documented


DOCUMENTED = message_tables(API)
MESSAGES = {name: message for name, message in FILE.message_types_by_name.items()}
ENUMS = {name: enum for name, enum in FILE.enum_types_by_name.items()}


def test_the_page_has_field_tables() -> None:
    assert {"Evaluation", "ShowdownResponse", "SeatResult", "GameInfo"} <= set(DOCUMENTED)


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_every_message_is_a_table_of_its_fields_and_their_types(name: str) -> None:
    message: Descriptor = MESSAGES[name]
    expected = {field.name: documented_type(field) for field in message.fields}
    if not expected:
        assert re.search(rf"`{name}` has no fields", API), f"say that `{name}` has no fields"
        return
    assert name in DOCUMENTED, f"docs/api.md has no table of {name}'s fields"
    assert DOCUMENTED[name] == expected


def test_every_table_is_of_a_message_the_contract_has() -> None:
    assert set(DOCUMENTED) <= set(MESSAGES)


def test_showdown_results_are_seat_results() -> None:
    """The fact the page once had wrong: each result is a ``SeatResult{player, evaluation}``."""
    results = MESSAGES["ShowdownResponse"].fields_by_name["results"]
    assert spelled(results) == "repeated SeatResult"
    assert [field.name for field in MESSAGES["SeatResult"].fields] == ["player", "evaluation"]
    assert DOCUMENTED["ShowdownResponse"]["results"] == "repeated SeatResult"


def _rpc_rows() -> dict[str, str]:
    section = API.split("## Service `handeval.v1.HandEvaluator`", 1)[1].split("\n## ", 1)[0]
    rows = [_cells(line) for line in section.splitlines() if line.startswith("| `")]
    return {_ticked(row[0]): row[1] for row in rows}


def test_the_rpc_table_is_the_service() -> None:
    rows = _rpc_rows()
    assert set(rows) == {method.name for method in SERVICE.methods}
    for method in SERVICE.methods:
        request, _, reply = rows[method.name].partition("→")
        assert TICKED.findall(request) == [method.input_type.name], method.name
        assert TICKED.findall(reply) == [method.output_type.name], method.name
        assert ("stream" in request) == method.client_streaming, method.name
        assert ("stream" in reply) == method.server_streaming, method.name


def _upper_snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


def test_the_enum_values_listed_are_the_enums() -> None:
    """``TonkEnding`` (``TONK``, ``OUT``, ...): a list of an enum's values names every value
    but the unspecified one, as the wire spells it without the enum's prefix."""
    listed = {
        name: TICKED.findall(values)
        for name, values in re.findall(r"`(\w+)`\s+\(([^)]*)\)", API)
        if name in ENUMS and TICKED.findall(values)
    }
    assert {"Declaration", "TonkEnding", "DealBonus"} <= set(listed)
    for name, values in listed.items():
        enum: EnumDescriptor = ENUMS[name]
        prefix = _upper_snake(name) + "_"
        wire = {value.name.removeprefix(prefix) for value in enum.values}
        assert set(values) == wire - {"UNSPECIFIED"}, name


def test_every_contract_name_in_backticks_is_the_contracts() -> None:
    """A message, enum or RPC named in backticks exists; ``Message.field`` names one of its
    fields; a ``GAME_*`` (or any enum value) is a value of its enum."""
    names = set(MESSAGES) | set(ENUMS) | {method.name for method in SERVICE.methods}
    values = {value.name for enum in ENUMS.values() for value in enum.values}
    prefixes = tuple(_upper_snake(name) + "_" for name in ENUMS)
    wrong = []
    for token in TICKED.findall(FENCE.sub("", API)):
        head, _, tail = token.partition(".")
        if re.fullmatch(r"[A-Z][a-z]\w+", head) and head not in EXTERNAL_NAMES:
            field_missing = head in MESSAGES and tail and tail not in MESSAGES[head].fields_by_name
            if head not in names or field_missing:
                wrong.append(token)
        elif re.fullmatch(r"[A-Z][A-Z0-9_]*[A-Z0-9]", token) and token.startswith(prefixes):
            wrong += [token] if token not in values else []
    assert not wrong, "docs/api.md names what the contract does not have: " + ", ".join(wrong)


SETTINGS = Settings()
FLAGS = {field.name for field in fields(Settings)}
LIMITS = message_limits(SETTINGS.max_batch_hands, SETTINGS.max_message_bytes)
EXPECTED_LIMITS: dict[str, list[float]] = {
    "hands in one": [SETTINGS.max_batch_hands],
    "bytes per batch row": [MAX_ROW_BYTES],
    "message received / sent": [LIMITS.receive, LIMITS.send],
    "seats in a Showdown": [request_limits.MAX_SEATS],
    "cards in any one list": [request_limits.MAX_CARDS],
    "table spreads": [request_limits.MAX_SPREADS],
    "characters of one card": [request_limits.MAX_CARD_CHARS],
    "bytes of a player id": [request_limits.MAX_ID_BYTES],
    "Odds: exact run-outs": [
        SETTINGS.max_exact_runouts,
        SETTINGS.odds_samples,
        SETTINGS.max_odds_samples,
    ],
    "batches and Odds running": [pool_slots(SETTINGS.max_concurrent_rpcs, SETTINGS.threads)],
    "deadline of a call": [SETTINGS.default_deadline_seconds],
    "an `EvaluateStream` with no request": [SETTINGS.stream_idle_seconds],
    "streams open at once": [SETTINGS.max_streams_per_connection],
    "a connection's age": [
        SETTINGS.max_connection_age_seconds,
        10,  # gRPC's own jitter of the age, ±10%
        SETTINGS.max_connection_age_grace_seconds,
    ],
}
NUMBER = re.compile(r"(?<![\w.-])\d[\d,]*(?:\.\d+)?")


def _limit_rows() -> list[list[str]]:
    section = API.split("\n## Limits\n", 1)[1].split("\n## ", 1)[0]
    rows = [_cells(line) for line in section.splitlines() if line.startswith("|")]
    return rows[2:]


def _numbers(text: str) -> list[float]:
    return [float(number.replace(",", "")) for number in NUMBER.findall(text)]


@pytest.mark.parametrize("row", _limit_rows(), ids=lambda row: row[0])
def test_a_limit_is_the_value_the_server_sets(row: list[str]) -> None:
    label, default = row[0], row[1]
    matched = [key for key in EXPECTED_LIMITS if label.startswith(key)]
    assert len(matched) == 1, f"tell this test where the code sets {label!r}"
    assert _numbers(re.sub(r"`--[\w-]+`", "", default)) == EXPECTED_LIMITS[matched[0]]
    for flag in re.findall(r"`--([\w-]+)`", default):
        assert flag.replace("-", "_") in FLAGS, flag


def test_the_limits_table_has_every_limit() -> None:
    labels = [row[0] for row in _limit_rows()]
    assert all(any(label.startswith(key) for label in labels) for key in EXPECTED_LIMITS)


def test_a_default_the_page_gives_a_setting_is_the_settings() -> None:
    """Prose such as "`--max-batch-hands` (default 100,000)" states the setting's default."""
    stated = re.findall(r"`--([\w-]+)`\s+\((?:default )?([\d,.]+)\b", API)
    assert len(stated) >= 5
    for flag, value in stated:
        name = flag.replace("-", "_")
        assert name in FLAGS, flag
        assert float(value.replace(",", "")) == getattr(SETTINGS, name), flag
