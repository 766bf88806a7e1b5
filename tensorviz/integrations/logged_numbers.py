"""The numbers a trainer logged, as plain floats for `WatchRun.log` (shared by the callbacks)."""

from __future__ import annotations

import numbers


def as_number(value) -> float | None:
    """A float for a Python/NumPy number or a one-element tensor (NaN and inf kept: they are
    news); None for anything else (strings, lists, bools, tensors of several elements)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, numbers.Real):
        return float(value)
    numel = getattr(value, "numel", None)
    if callable(numel) and hasattr(value, "item") and numel() == 1:
        item = value.item()
        return None if isinstance(item, bool) else float(item)
    return None


def numeric_logs(logs) -> dict[str, float]:
    """The entries of a {name: value} mapping that are numbers, in their order."""
    kept = {}
    for name, value in dict(logs or {}).items():
        number = as_number(value)
        if number is not None:
            kept[str(name)] = number
    return kept
