"""The layers × steps heatmap's numbers, computed without a screen.

`StepBins` holds a steps × rows table (gradient norms, one row per parameter tensor) reduced to
at most `max_bins` columns: each column is the largest value of `width` consecutive steps
(NaN-ignoring, so a spike is never averaged away), and `width` doubles when the run grows past
`max_bins × width` steps. Appending a few steps touches only the last column; a million steps
cost 2,048 columns. `log_image` turns the columns into log10 values and the colour levels.
"""

from __future__ import annotations

import numpy as np

MAX_BINS = 2048


class StepBins:
    def __init__(self, max_bins: int = MAX_BINS):
        self.max_bins = max_bins
        self.width = 1  # steps per column (a power of two)
        self.steps = 0  # steps absorbed
        self.rows = 0
        self._data = np.full((0, 0), np.nan, dtype=np.float32)  # columns × rows

    @property
    def columns(self) -> int:
        return -(-self.steps // self.width)

    @property
    def values(self) -> np.ndarray:
        """columns × rows: column c covers steps [c·width, (c+1)·width) (counted from 0)."""
        return self._data[: self.columns, : self.rows]

    def extend(self, block: np.ndarray) -> None:
        """Add `block` (new steps × rows; rows may be more than before: a later schema)."""
        block = np.asarray(block, dtype=np.float32)
        if block.ndim != 2 or len(block) == 0:
            return
        total = self.steps + len(block)
        while -(-total // self.width) > self.max_bins:
            self._halve()
        self._reserve(-(-total // self.width), max(self.rows, block.shape[1]))
        self.rows = max(self.rows, block.shape[1])
        cols = block.shape[1]
        start = 0
        filled = self.steps % self.width
        if filled:  # the last column is partly filled: top it up
            take = min(len(block), self.width - filled)
            column = self.steps // self.width
            part = np.fmax.reduce(block[:take], axis=0)
            self._data[column, :cols] = np.fmax(self._data[column, :cols], part)
            start = take
        if start < len(block):
            rest = block[start:]
            first = (self.steps + start) // self.width
            if self.width == 1:
                self._data[first : first + len(rest), :cols] = rest
            else:
                reduced = _block_fmax(rest, self.width)
                self._data[first : first + len(reduced), :cols] = reduced
        self.steps = total

    def _halve(self) -> None:
        """Twice as many steps per column: pairs of columns become one."""
        columns = self.columns
        data = self._data[:columns]
        pairs = columns // 2
        merged = np.fmax(data[0 : 2 * pairs : 2], data[1 : 2 * pairs : 2])
        if columns % 2:
            merged = np.concatenate([merged, data[-1:]])
        self._data = np.full_like(self._data, np.nan)
        self._data[: len(merged)] = merged
        self.width *= 2

    def _reserve(self, columns: int, rows: int) -> None:
        have_columns, have_rows = self._data.shape
        if columns <= have_columns and rows <= have_rows:
            return
        grown = np.full(
            (max(columns, min(self.max_bins, 2 * have_columns), 64), max(rows, have_rows)),
            np.nan,
            dtype=np.float32,
        )
        grown[:have_columns, :have_rows] = self._data
        self._data = grown

    def column_of_step(self, row: int) -> int:
        """The column that holds the step in row `row` (counted from 0)."""
        return row // self.width

    def step_range(self, column: int) -> tuple[int, int]:
        """The rows (from 0, end exclusive) column `column` covers."""
        return column * self.width, min(self.steps, (column + 1) * self.width)


def _block_fmax(rows: np.ndarray, width: int) -> np.ndarray:
    """fmax over each `width` consecutive rows (the last group may be shorter); a reshape and
    one reduction, ten times faster than np.fmax.reduceat on 100k × 500."""
    whole = len(rows) // width * width
    reduced = np.fmax.reduce(rows[:whole].reshape(-1, width, rows.shape[1]), axis=1)
    if whole < len(rows):
        reduced = np.concatenate([reduced, np.fmax.reduce(rows[whole:], axis=0)[None]])
    return reduced


def log_image(values: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
    """log10 of `values` (NaN stays NaN: no value; 0 and below go to the lowest level) and the
    colour levels (lowest, highest finite log10), so colour = position of log10(v) between them."""
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log10(values, dtype=np.float32)
    finite = logs[np.isfinite(logs)]
    if finite.size == 0:
        return np.full(values.shape, np.nan, np.float32), (0.0, 1.0)
    low, high = float(finite.min()), float(finite.max())
    if high - low < 1e-6:
        low, high = low - 0.5, high + 0.5
    logs[np.isneginf(logs)] = low  # an exact zero: the lowest colour
    logs[(values <= 0) & ~np.isnan(values)] = low
    return logs, (low, high)


def level_index(log_value: float, levels: tuple[float, float], lut_size: int) -> int:
    """The entry of a `lut_size` colour table that pyqtgraph paints `log_value` with."""
    low, high = levels
    scaled = (log_value - low) * lut_size / (high - low)
    return int(min(lut_size - 1, max(0, np.floor(scaled))))


def row_label_stride(rows: int, pixels: float, pixels_per_label: float = 14.0) -> int:
    """Label every k-th row so that labels do not overlap: 1 for a few rows, 100+ for 2,000."""
    if rows <= 0 or pixels <= 0:
        return 1
    return max(1, int(np.ceil(rows * pixels_per_label / pixels)))
