"""What the Runs area's follower sends from its worker thread to the window: the rows a
RunReader read since the last update, as plain NumPy copies (ARCHITECTURE rule 4), and the
window's own growing copy they are added to (FollowedRun, FollowedRank).

The window keeps what it draws, not the reader's whole tables: the gradient norms as StepBins
(the heatmap's columns, at most a few thousand however long the run), the update ratios at the
steps that have them, the loss and the user's scalars, and the histogram records.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tensorviz.core.watch.heatmap_bins import StepBins
from tensorviz.core.watch.run_reader import HistogramRecord, RankSeries, RunReader


@dataclass
class RankUpdate:
    rank: int
    first_row: int  # the rank's row of the first step in this update
    steps: np.ndarray  # int64, one per new step
    loss: np.ndarray  # float64
    times: np.ndarray  # float64, Unix seconds
    param_names: list[str]  # every parameter so far (the columns of grad_norm/update_ratio)
    grad_norm: np.ndarray  # new steps × len(param_names), float32
    update_ratio: np.ndarray  # the same shape; NaN where a step has none
    scalar_names: list[str]
    scalars: np.ndarray  # new steps × len(scalar_names), float64
    histograms: list[HistogramRecord]
    param_modules: dict[str, str]  # parameter → the module it belongs to ('' if unknown)
    module_types: dict[str, str]  # module → its class name (Linear)
    ended: dict | None  # the rank's "ended" event, once it has one
    dropped: int = 0


@dataclass
class RunUpdate:
    ranks: list[RankUpdate]
    problems: list[str]  # every sentence the reader has (damage), not only new ones
    ended: bool
    diagnoses: list | None = None  # None: not recomputed with this update


class UpdateCollector:
    """Turns what a RunReader has read into RunUpdates holding only what was not sent yet."""

    def __init__(self, reader: RunReader):
        self.reader = reader
        self._rows: dict[int, int] = {}
        self._histograms: dict[int, int] = {}
        self._ended: dict[int, bool] = {}
        self._problems = 0

    def collect(self) -> RunUpdate | None:
        """The new part since the last call, or None when nothing changed."""
        ranks = []
        for rank, series in sorted(self.reader.ranks.items()):
            update = self._rank_update(rank, series)
            if update is not None:
                ranks.append(update)
        if not ranks and len(self.reader.problems) == self._problems:
            return None
        self._problems = len(self.reader.problems)
        return RunUpdate(ranks, list(self.reader.problems), self.reader.ended)

    def _rank_update(self, rank: int, series: RankSeries) -> RankUpdate | None:
        start = self._rows.get(rank, 0)
        end = len(series.steps)
        histograms = series.histograms[self._histograms.get(rank, 0) :]
        ended = series.ended is not None
        if end == start and not histograms and ended == self._ended.get(rank, False):
            return None
        self._rows[rank] = end
        self._histograms[rank] = len(series.histograms)
        self._ended[rank] = ended
        grad = series.tables["grad_norm"]
        ratio = series.tables["update_ratio"]
        names = list(grad.names)
        return RankUpdate(
            rank=rank,
            first_row=start,
            steps=np.asarray(series.steps[start:end], dtype=np.int64),
            loss=np.asarray(series.loss[start:end], dtype=np.float64),
            times=np.asarray(series.times[start:end], dtype=np.float64),
            param_names=names,
            grad_norm=np.array(grad.values[start:end]),
            update_ratio=_columns(ratio, names, start, end),
            scalar_names=list(series.scalars.names),
            scalars=np.array(series.scalars.values[start:end]),
            histograms=list(histograms),
            param_modules={n: str(series.param_info.get(n, {}).get("module") or "") for n in names},
            module_types={n: str(m.get("type") or "") for n, m in series.module_info.items()},
            ended=series.ended,
            dropped=series.dropped,
        )


def _columns(table, names: list[str], start: int, end: int) -> np.ndarray:
    """`table`'s rows start:end in the column order of `names` (NaN for a name it lacks)."""
    out = np.full((end - start, len(names)), np.nan, dtype=np.float32)
    for column, name in enumerate(names):
        index = table.index_of(name)
        if index is not None and index < table.values.shape[1]:
            out[:, column] = table.values[start:end, index]
    return out


class GrowingRows:
    """A rows × columns float array that grows by blocks (amortised O(1)) and by columns (a
    later schema); `values` is a view of the filled part."""

    def __init__(self, columns: int = 0, dtype=np.float64):
        self._data = np.full((0, columns), np.nan, dtype=dtype)
        self.rows = 0
        self.columns = columns

    @property
    def values(self) -> np.ndarray:
        return self._data[: self.rows, : self.columns]

    def extend(self, block: np.ndarray) -> None:
        block = np.asarray(block)
        if block.ndim == 1:
            block = block[:, None]
        if len(block) == 0:
            return
        needed, width = self.rows + len(block), max(self.columns, block.shape[1])
        have_rows, have_columns = self._data.shape
        if needed > have_rows or width > have_columns:
            grown = np.full(
                (max(needed, 2 * have_rows, 256), max(width, have_columns)),
                np.nan,
                dtype=self._data.dtype,
            )
            grown[: self.rows, : self.columns] = self.values
            self._data = grown
        self._data[self.rows : needed, : block.shape[1]] = block
        self.rows, self.columns = needed, width


class FollowedRank:
    """One rank as the window holds it."""

    def __init__(self, rank: int):
        self.rank = rank
        self._steps = GrowingRows(3)  # step, loss, time
        self.param_names: list[str] = []
        self.param_modules: dict[str, str] = {}
        self.module_types: dict[str, str] = {}
        self.grad_bins = StepBins()
        self._ratios = GrowingRows(0, np.float32)  # the sampled steps only
        self._ratio_rows = GrowingRows(1)  # their rows, counted from 1
        self.scalar_names: list[str] = []
        self._scalars = GrowingRows(0)
        self.histograms: list[HistogramRecord] = []
        self.ended: dict | None = None
        self.dropped = 0

    @property
    def rows(self) -> int:
        return self._steps.rows

    @property
    def last_step(self) -> tuple[int, float]:
        """(the last step read, its time), (0, 0.0) before the first; no copy of the columns."""
        if not self.rows:
            return 0, 0.0
        step, _loss, when = self._steps.values[-1]
        return int(step), float(when)

    @property
    def steps(self) -> np.ndarray:
        return self._steps.values[:, 0].astype(np.int64)

    @property
    def loss(self) -> np.ndarray:
        return self._steps.values[:, 1]

    @property
    def times(self) -> np.ndarray:
        return self._steps.values[:, 2]

    def apply(self, update: RankUpdate) -> None:
        if update.first_row != self.rows:  # (never expected: the collector sends in order)
            return
        self._steps.extend(np.column_stack([update.steps, update.loss, update.times]))
        self.param_names = update.param_names
        self.param_modules = update.param_modules
        self.module_types = update.module_types
        self.grad_bins.extend(update.grad_norm)
        ratios = update.update_ratio
        sampled = np.isfinite(ratios).any(axis=1) if ratios.size else np.zeros(0, bool)
        if sampled.any():
            self._ratios.extend(ratios[sampled])
            self._ratio_rows.extend(np.flatnonzero(sampled) + update.first_row + 1)
        names = update.scalar_names
        if len(update.steps) and names:
            order = [self.scalar_names.index(n) if n in self.scalar_names else -1 for n in names]
            for position, name in enumerate(names):
                if order[position] < 0:
                    self.scalar_names.append(name)
            block = np.full((len(update.steps), len(self.scalar_names)), np.nan)
            block[:, [self.scalar_names.index(n) for n in names]] = update.scalars
            self._scalars.extend(block)
        elif len(update.steps):
            self._scalars.extend(np.full((len(update.steps), len(self.scalar_names)), np.nan))
        self.histograms.extend(update.histograms)
        self.ended = update.ended
        self.dropped = update.dropped

    @property
    def ratio_shape(self) -> tuple[int, int]:
        """(steps with update ratios so far, parameters): what update_ratios() would return."""
        return self._ratios.rows, len(self.param_names)

    def update_ratios(self) -> tuple[np.ndarray, np.ndarray]:
        """(x: the rows, counted from 1, that have ratios; their ratios × param_names)."""
        values = np.full((self._ratios.rows, len(self.param_names)), np.nan, np.float32)
        values[:, : self._ratios.columns] = self._ratios.values
        return self._ratio_rows.values[:, 0], values

    def scalar(self, name: str) -> np.ndarray:
        """The user's scalar `name` at every step (NaN where a step did not log it)."""
        if name not in self.scalar_names:
            return np.full(self.rows, np.nan)
        column = self.scalar_names.index(name)
        values = np.full(self.rows, np.nan)
        have = self._scalars.values
        if column < have.shape[1]:
            values[: len(have)] = have[:, column]
        return values


@dataclass
class FollowedRun:
    """The window's copy of a run: every rank, the reader's problems, the latest diagnoses."""

    ranks: dict[int, FollowedRank] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    ended: bool = False
    diagnoses: list = field(default_factory=list)

    def apply(self, update: RunUpdate) -> None:
        for rank_update in update.ranks:
            rank = self.ranks.setdefault(rank_update.rank, FollowedRank(rank_update.rank))
            rank.apply(rank_update)
        self.problems = update.problems
        self.ended = update.ended
        if update.diagnoses is not None:
            self.diagnoses = update.diagnoses
