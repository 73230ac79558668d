"""The port the workers share, reserved in process: SO_REUSEPORT listeners share it, and a
port another program listens on is refused (the worker processes: tests/test_workers.py)."""

from __future__ import annotations

import socket

import pytest

from service.server.workers import reserve_port


def test_a_reserved_port_is_shared_by_reuseport_listeners() -> None:
    with reserve_port("127.0.0.1", 0) as port:
        assert port > 0
        listeners = []
        for _ in range(2):
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            listener.bind(("127.0.0.1", port))
            listener.listen()
            listeners.append(listener)
        for listener in listeners:
            listener.close()


def test_a_port_with_a_listener_is_refused() -> None:
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(OSError), reserve_port("127.0.0.1", taken.getsockname()[1]):
            pass
