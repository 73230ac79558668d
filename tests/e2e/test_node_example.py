"""The Node.js example (examples/node) against the real server: it must score exactly
what the Python client scores for the same requests."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from handeval_client import HandevalClient, HandevalError, evaluate_request

from tests.conftest import ServerProcess, npm_ci, require_tool

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "node"


@pytest.fixture(scope="module")
def node_output(server: ServerProcess) -> dict[str, Any]:
    require_tool("node", "Debian package `nodejs`")
    npm_ci(EXAMPLE)
    done = subprocess.run(
        ["node", "main.js", "--target", server.target, "--json"],
        cwd=EXAMPLE,
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    output: dict[str, Any] = json.loads(done.stdout)
    return output


@pytest.fixture(scope="module")
def client(server: ServerProcess) -> HandevalClient:
    return HandevalClient(server.target)


def test_node_sees_the_service_serving(node_output: dict[str, Any]) -> None:
    assert node_output["health"] == "SERVING"


def test_node_evaluations_equal_the_python_client(
    node_output: dict[str, Any], client: HandevalClient
) -> None:
    expected = {
        "poker": client.evaluate("poker-high", ["Ah", "Kh"], ["Qh", "Jh", "Th", "2c", "3d"]),
        "tonk": client.evaluate("tonk", ["5h", "6h", "7h", "Kd", "2c"]),
        "notpoker": client.evaluate("not-poker", ["As", "Ah", "Ad", "Ac", "X1", "3c"]),
    }
    assert [e["request_id"] for e in node_output["evaluate"]] == list(expected)
    for seen in node_output["evaluate"]:
        want = expected[seen["request_id"]]
        assert (seen["strength"], seen["description"]) == (want.strength, want.description)


def test_node_numbers_showdown_is_an_instant_win_as_in_python(
    node_output: dict[str, Any], client: HandevalClient
) -> None:
    reply = client.showdown(
        "numbers",
        {"alice": ["3d", "9h", "Ks"], "bob": ["Ah", "2d", "4c", "5s", "6h"]},
        table=["3c", "9d", "Kh"],
    )
    want = [
        {"player": a.player, "pot": a.pot, "share": f"{a.numerator}/{a.denominator}"}
        for a in reply.awards
    ]
    assert node_output["showdown"]["numbers"]["awards"] == want
    assert want == [{"player": "alice", "pot": "whole", "share": "1/1"}]


def test_node_tonk_caught_drop_pays_as_in_python(
    node_output: dict[str, Any], client: HandevalClient
) -> None:
    reply = client.showdown(
        "tonk",
        [("alice", ["5h", "6d", "2c"]), ("bob", ["Ac", "2d", "3s"]), ("carol", ["Kc", "Qd"])],
        ending="drop",
        ender="alice",
    )
    want = [{"player": p.player, "stakes": p.stakes} for p in reply.payouts]
    assert node_output["showdown"]["tonk"]["payouts"] == want
    assert want == [
        {"player": "alice", "stakes": -2},
        {"player": "bob", "stakes": 3},
        {"player": "carol", "stakes": -1},
    ]


def test_node_batch_equals_the_python_client(
    node_output: dict[str, Any], client: HandevalClient
) -> None:
    hands = [["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"], ["2c", "7d", "9h", "Js", "4c", "5d", "8h"]]
    result = client.evaluate_batch("poker-high", hands)
    assert node_output["batch"]["strength"] == [int(s) for s in result.strength]
    assert node_output["batch"]["value"] == [int(v) for v in result.value]
    assert node_output["batch"]["value"][0] == 1


def test_node_stream_goes_on_after_a_bad_request(
    node_output: dict[str, Any], client: HandevalClient
) -> None:
    stream = node_output["stream"]
    assert [s["request_id"] for s in stream] == ["s1", "s2", "s3"]
    assert stream[1]["error_code"] == 3
    want = client.evaluate("three-thirty-three", ["Ah", "9d"])
    assert stream[0]["description"] == want.description
    high_card = evaluate_request("high-card", "2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d")
    assert stream[2]["strength"] == client.send_evaluate(high_card).strength


def test_node_reads_field_violations_like_python(
    node_output: dict[str, Any], client: HandevalClient
) -> None:
    with pytest.raises(HandevalError) as caught:
        client.evaluate("numbers", ["Ah", "Zz", "Ah"])
    want = [{"field": f, "description": d} for f, d in caught.value.violations]
    assert node_output["invalid"]["code"] == "INVALID_ARGUMENT"
    assert node_output["invalid"]["violations"] == want
    assert {v["field"] for v in want} == {"hand[1]", "hand[2]"}


def test_node_odds_equal_the_python_client(
    node_output: dict[str, Any], client: HandevalClient
) -> None:
    reply = client.odds("poker-high", {"alice": "As Ks", "bob": "?2"}, table="2c 7d 9h")
    want = {
        "exact": reply.exact,
        "runouts": reply.runouts,
        "seats": [{"player": s.player, "share": s.share} for s in reply.seats],
    }
    assert node_output["odds"] == want
    assert (want["exact"], want["runouts"]) == (True, 1_070_190)
