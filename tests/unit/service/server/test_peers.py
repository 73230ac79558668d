"""Which client a costly call is charged to (``service.server.peers``): the front's
``forwarded`` header when the setting is on, read once per call, and the connection
whenever that header names nobody."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import pytest

from service.server.config import Settings, add_serve_arguments
from service.server.peers import (
    PREFIX,
    connection_peer,
    forwarded_for,
    forwarded_peer,
    peer_of,
)

FRONT = "ipv4:127.0.0.1:58882"


@dataclass(frozen=True)
class Call:
    """What grpc.aio's context tells of a call: its metadata and its connection."""

    metadata: tuple[tuple[str, str], ...] | None
    connection: str = FRONT

    def invocation_metadata(self) -> tuple[tuple[str, str], ...] | None:
        return self.metadata

    def peer(self) -> str:
        return self.connection


@pytest.mark.parametrize(
    ("value", "node"),
    [
        ("for=_i4l1xUKD", "_i4l1xUKD"),
        ("For=_i4l1xUKD", "_i4l1xUKD"),
        ("for=192.0.2.43", "192.0.2.43"),
        ('for="[2001:db8:cafe::17]:4711"', "[2001:db8:cafe::17]:4711"),
        ("proto=http;for=_a;by=_b", "_a"),
        (" for = _a ", "_a"),
        ("for=_client, for=_front", "_front"),
        ("for=unknown", "unknown"),
    ],
)
def test_the_node_is_the_for_of_the_element_the_nearest_proxy_appended(
    value: str, node: str
) -> None:
    assert forwarded_for(value) == node


@pytest.mark.parametrize(
    "value",
    [
        "",
        "for=",
        'for=""',
        "by=_front",
        "for=_front, by=_b",
        "for",
        '"for=_a"',
        "for=a b",
        'for="_a',
        "for=_a/b",
        "for=" + "a" * 129,
        "for=\u00e9",
        ";;,,==",
    ],
)
def test_a_header_that_names_no_node_names_nobody(value: str) -> None:
    assert forwarded_for(value) is None


def test_with_the_setting_on_a_call_is_charged_to_the_client_the_front_names() -> None:
    call = Call((("user-agent", "grpc-python"), ("forwarded", "for=_i4l1xUKD")))
    assert forwarded_peer(call) == PREFIX + "_i4l1xUKD"
    assert peer_of(True) is forwarded_peer


def test_two_clients_on_one_front_connection_are_two_peers() -> None:
    first = Call((("forwarded", "for=_a"),))
    second = Call((("forwarded", "for=_b"),))
    assert first.peer() == second.peer()
    assert forwarded_peer(first) != forwarded_peer(second)


def test_the_last_forwarded_header_counts() -> None:
    call = Call((("forwarded", "for=_a"), ("forwarded", "for=_b")))
    assert forwarded_peer(call) == PREFIX + "_b"


@pytest.mark.parametrize(
    "metadata",
    [None, (), (("user-agent", "x"),), (("forwarded", "by=_b"),), (("forwarded", "for=a b"),)],
)
def test_without_a_named_client_the_call_is_charged_to_its_connection(
    metadata: tuple[tuple[str, str], ...] | None,
) -> None:
    assert forwarded_peer(Call(metadata)) == FRONT


def test_a_name_cannot_pass_for_a_connection() -> None:
    """A forwarded node spelled like ``context.peer()`` still gets a key of its own."""
    call = Call((("forwarded", "for=ipv4:127.0.0.1:58882"),))
    assert forwarded_peer(call) != FRONT


def test_with_the_setting_off_the_header_is_not_read() -> None:
    call = Call((("forwarded", "for=_a"),))
    assert peer_of(False) is connection_peer
    assert connection_peer(call) == FRONT


def _settings(argv: list[str], env: dict[str, str]) -> Settings:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    return Settings.from_args(parser.parse_args(argv), env)


def test_the_setting_is_off_unless_asked_and_has_a_flag_and_a_variable() -> None:
    assert _settings([], {}).peer_from_forwarded is False
    assert _settings(["--peer-from-forwarded"], {}).peer_from_forwarded is True
    assert _settings([], {"HANDEVAL_PEER_FROM_FORWARDED": "true"}).peer_from_forwarded is True
