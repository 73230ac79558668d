"""Settings: flag over environment over default; a bad one names its flag and variable."""

from __future__ import annotations

import argparse

import pytest

from service.server.config import SettingError, Settings, add_serve_arguments


def settings(argv: list[str], env: dict[str, str] | None = None) -> Settings:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    return Settings.from_args(parser.parse_args(argv), env or {})


def test_defaults_are_the_documented_ports() -> None:
    assert (settings([]).port, settings([]).metrics_port) == (50051, 9464)
    assert settings([]).reflection is True


def test_every_setting_has_a_flag_and_an_environment_variable() -> None:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    flags = {option for action in parser._actions for option in action.option_strings}
    for name in Settings.__dataclass_fields__:
        assert "--" + name.replace("_", "-") in flags
        assert f"HANDEVAL_{name.upper()}" in parser.format_help()


def test_the_environment_fills_what_flags_leave_out() -> None:
    got = settings(
        [],
        {"HANDEVAL_PORT": "6000", "HANDEVAL_GRACE_SECONDS": "2.5", "HANDEVAL_REFLECTION": "off"},
    )
    assert (got.port, got.grace_seconds, got.reflection) == (6000, 2.5, False)


def test_a_flag_wins_over_the_environment() -> None:
    got = settings(
        ["--port", "7000", "--reflection", "--log-level", "DEBUG"],
        {"HANDEVAL_PORT": "6000", "HANDEVAL_REFLECTION": "0", "HANDEVAL_LOG_LEVEL": "error"},
    )
    assert (got.port, got.reflection, got.log_level) == (7000, True, "debug")


@pytest.mark.parametrize(
    ("argv", "env", "words"),
    [
        (["--port", "http"], {}, "--port (HANDEVAL_PORT)"),
        (["--port", "70000"], {}, "0-65535"),
        ([], {"HANDEVAL_WORKERS": "0"}, "--workers (HANDEVAL_WORKERS)"),
        ([], {"HANDEVAL_GRACE_SECONDS": "-1"}, "HANDEVAL_GRACE_SECONDS"),
        (["--log-level", "loud"], {}, "debug, info"),
        ([], {"HANDEVAL_REFLECTION": "maybe"}, "true or false"),
        (["--max-message-bytes", "10"], {}, "65536"),
        (["--port", "9464"], {}, "--metrics-port (HANDEVAL_METRICS_PORT)"),
        (["--peer-share", "1.5"], {}, "more than 0 and at most 1"),
        ([], {"HANDEVAL_MEMORY_BUDGET_MIB": "-5"}, "--memory-budget-mib"),
    ],
)
def test_a_bad_setting_names_its_flag_and_variable(
    argv: list[str], env: dict[str, str], words: str
) -> None:
    with pytest.raises(SettingError) as caught:
        settings(argv, env)
    assert words in str(caught.value)


def test_an_ipv6_host_is_bracketed_in_the_address() -> None:
    assert Settings(host="::", port=1).address() == "[::]:1"
    assert Settings(host="127.0.0.1", port=2).address() == "127.0.0.1:2"
