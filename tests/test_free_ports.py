"""The tests' own port picker: a block per test worker, below the kernel's ephemeral ports."""

from __future__ import annotations

import itertools
import socket

from tests.conftest import PORT_BLOCK, _port_block, free_port, free_ports


def test_ports_come_from_this_workers_block_and_never_twice_running() -> None:
    base = _port_block()
    picked = [free_port() for _ in range(20)]
    assert all(base <= port < base + PORT_BLOCK < 32768 for port in picked)
    assert all(a != b for a, b in itertools.pairwise(picked))  # a server may not have bound it yet


def test_side_by_side_ports_are_all_free_and_the_next_pick_is_past_them() -> None:
    first = free_ports(3)
    for port in range(first, first + 3):
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))  # raises if taken
    assert free_port() not in range(first, first + 3)


def test_a_taken_port_is_never_picked() -> None:
    base = _port_block()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", free_port()))
        held = holder.getsockname()[1]
        holder.listen()
        assert held not in {free_port() for _ in range(PORT_BLOCK)}
    assert base <= held < base + PORT_BLOCK
