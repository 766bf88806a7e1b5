"""Parameters whose weights differ between the ranks of a distributed run after the same step.

DistributedDataParallel keeps every rank's parameters equal: the same start (broadcast), the
same all-reduced gradients, the same optimizer. A rank-local change (a buffer or weight edited
on one rank, a parameter left out of the all-reduce, a different learning rate) shows as a
weight norm that differs between ranks at the same step, beyond float32 rounding — a desync
no other tool shows. Each rank is compared with the lowest rank, step by step (matched by
optimizer and step number), one vectorised comparison per rank.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tensorviz.core.translation import _
from tensorviz.core.watch.diagnosis_texts import listed, number
from tensorviz.core.watch.run_reader import RankSeries, RunReader

# The same tensor's norm, computed by the same kernel, is bitwise equal on every rank; a sum
# taken in another order differs by a few float32 ulps (~1e-7 relative). 1e-5 is far above
# rounding and far below any real desync (one SGD step at lr 1e-3 moves a norm by ~1e-3).
RELATIVE_TOLERANCE = 1e-5
ABSOLUTE_TOLERANCE = 1e-8


@dataclass(frozen=True)
class RankDifference:
    """`rank`'s weights differ from `reference_rank`'s from `step` (its `row` in `rank`'s
    series) on: `names`, the largest relative difference `largest`; `title` and `detail`
    translated."""

    rank: int
    reference_rank: int
    step: int
    row: int
    names: tuple[str, ...]
    largest: float
    title: str
    detail: str

    def to_json(self) -> dict:
        return {"rank": self.rank, "reference_rank": self.reference_rank, "step": self.step,
                "row": self.row, "names": list(self.names), "largest": self.largest,
                "title": self.title, "detail": self.detail}  # fmt: skip


def rank_differences(reader: RunReader) -> list[RankDifference]:
    ranks = sorted(reader.ranks)
    if len(ranks) < 2:
        return []
    reference = reader.ranks[ranks[0]]
    found = []
    for rank in ranks[1:]:
        difference = _compare(reference, reader.ranks[rank])
        if difference is not None:
            found.append(difference)
    return found


def _row_keys(series: RankSeries) -> np.ndarray:
    steps = np.asarray(series.steps, dtype=np.int64)
    optimizers = np.asarray(series.optimizers, dtype=np.int64)
    return optimizers * (1 << 40) + steps


def _compare(reference: RankSeries, other: RankSeries) -> RankDifference | None:
    _keys, reference_rows, other_rows = np.intersect1d(
        _row_keys(reference), _row_keys(other), assume_unique=False, return_indices=True
    )
    if reference_rows.size == 0:
        return None
    order = np.argsort(other_rows)  # in the other rank's order of steps
    reference_rows, other_rows = reference_rows[order], other_rows[order]
    reference_table = reference.tables["weight_norm"]
    other_table = other.tables["weight_norm"]
    names = [n for n in other_table.names if reference_table.index_of(n) is not None]
    if not names:
        return None
    a = reference_table.values[reference_rows][:, [reference_table.index_of(n) for n in names]]
    b = other_table.values[other_rows][:, [other_table.index_of(n) for n in names]]
    a, b = a.astype(np.float64), b.astype(np.float64)
    with np.errstate(invalid="ignore"):
        gap = np.abs(a - b)
        bar = ABSOLUTE_TOLERANCE + RELATIVE_TOLERANCE * np.maximum(np.abs(a), np.abs(b))
        finite_a, finite_b = np.isfinite(a), np.isfinite(b)
        differs = (finite_a & finite_b & (gap > bar)) | (finite_a != finite_b)
    if not differs.any():
        return None
    columns = np.flatnonzero(differs.any(axis=0))
    first_rows = differs[:, columns].argmax(axis=0)
    by_start = columns[np.lexsort((columns, first_rows))]
    first = int(first_rows.min())
    row = int(other_rows[first])
    step = int(other.steps[row])
    with np.errstate(invalid="ignore", divide="ignore"):
        relative = np.where(differs, gap / np.maximum(np.abs(a), np.abs(b)), 0.0)
    largest = float(np.nanmax(np.where(np.isfinite(relative), relative, np.inf)))
    differing = tuple(names[c] for c in by_start)
    at_first = differs[first]
    title = _("rank {rank}'s weights differ from rank {reference}'s from step {step}: "
              "{names}").format(rank=other.rank, reference=reference.rank, step=step,
                                names=listed(differing))  # fmt: skip
    column = int(np.flatnonzero(at_first)[0])
    detail = _(
        "at step {step} ‖{name}‖ is {theirs} on rank {rank} and {ours} on rank {reference} "
        "(largest relative difference {largest}); DistributedDataParallel keeps them equal, so "
        "something changed one rank's weights alone (an edit on one rank, a parameter outside "
        "the all-reduce, another learning rate)."
    ).format(step=step, name=names[column], theirs=f"{b[first, column]:.7g}", rank=other.rank,
             ours=f"{a[first, column]:.7g}", reference=reference.rank,
             largest=number(largest))  # fmt: skip
    return RankDifference(other.rank, reference.rank, step, row, differing, largest, title, detail)
