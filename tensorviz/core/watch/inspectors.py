"""Which window "Inspect this step" opens for a paused watched run: tensorviz.api's, handed down
by the layers above core (tensorviz.watch(), and the entry point for `tensorviz watch SCRIPT`),
which core cannot import. Imports nothing, so registering costs an entry point nothing."""

from __future__ import annotations

from collections.abc import Callable

_inspectors: list[Callable] = []


def use_inspector(inspector: Callable) -> None:
    """`inspector(gate)` opens gate.paused for every StepGate made without one of its own."""
    _inspectors[:] = [inspector]


def default_inspector() -> Callable | None:
    return _inspectors[0] if _inspectors else None
