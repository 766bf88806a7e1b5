"""Which indices the grid's axes label: round steps (1, 2, 5, 10, ...) wide enough for the
text, only the multiples inside the visible range (as many as drawn, never one test per
column), and compact numbers where a long index would not fit the margin."""

from __future__ import annotations

import math


def label_step(cells_per_label: float) -> int:
    """A round step (1, 2, 5, 10, 20, 50, ...) of at least `cells_per_label` cells."""
    need = max(1, math.ceil(cells_per_label))
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= need:
                return step * factor
        step *= 10


def labelled(visible: range, every: int) -> range:
    """The multiples of `every` inside `visible`: as many as labels drawn, not as cells shown."""
    first = -(-visible.start // every) * every
    return range(first, visible.stop, every)


def compact(index: int) -> str:
    """12000000 → '12M', 2500 → '2.5k': a label that fits the margin beside the rows."""
    for size, suffix in ((1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")):
        if index >= size:
            return f"{index / size:.4g}{suffix}"
    return str(index)
