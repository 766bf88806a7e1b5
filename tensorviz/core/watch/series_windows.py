"""The vectorised building blocks of the diagnoses, on steps × columns tables in NumPy: per-layer
norms from per-parameter norms, and "held over a window of consecutive rows", fed rows in order.

A run of 100k steps × 500 parameters is a 200 MB float32 table; the diagnoses walk it in row
chunks of a few MB (cache-sized), one NumPy call per chunk and per parameter of the largest
layer, never a Python loop per cell. HeldTracker keeps what it needs to go on (the last rows of
an unfinished window), so a live run is judged on its new rows only.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

CHUNK_ROWS = 1024  # 1024 × 500 float64 = 4 MB: fast through the caches (measured: 256-2048)


def row_chunks(rows: int, start: int = 0, size: int = CHUNK_ROWS) -> Iterator[slice]:
    for begin in range(start, rows, size):
        yield slice(begin, min(rows, begin + size))


class Groups:
    """Columns grouped (a layer's parameters): the index table for group_norms."""

    def __init__(self, groups: list[np.ndarray]):
        self.count = len(groups)
        self.sizes = np.array([len(g) for g in groups], dtype=np.int64)
        width = int(self.sizes.max()) if groups else 0
        self.table = np.zeros((self.count, width), dtype=np.int64)
        for index, columns in enumerate(groups):
            self.table[index, : len(columns)] = columns
        # per position j within a group: the groups that have a j-th column
        self.having = [np.flatnonzero(self.sizes > j) for j in range(width)]


def group_norms(values: np.ndarray, groups: Groups) -> np.ndarray:
    """rows × groups: the 2-norm of each group's columns, sqrt(Σ v²) — the norm of a layer's
    parameters taken together, since each column is one parameter's norm. Non-finite cells are
    left out; a group with no finite cell in a row is NaN there. `values`: a few rows (a chunk)."""
    rows = values.shape[0]
    if groups.count == 0 or rows == 0:
        return np.full((rows, groups.count), np.nan)
    squares = values.astype(np.float64)
    bad = ~np.isfinite(squares)
    np.copyto(squares, 0.0, where=bad)
    np.square(squares, out=squares)
    total = np.take(squares, groups.table[:, 0], axis=1)
    missing = np.take(bad, groups.table[:, 0], axis=1)
    for position in range(1, groups.table.shape[1]):
        having = groups.having[position]
        columns = groups.table[having, position]
        if having.size == groups.count:
            total += np.take(squares, columns, axis=1)
            missing &= np.take(bad, columns, axis=1)
        else:
            total[:, having] += np.take(squares, columns, axis=1)
            missing[:, having] &= np.take(bad, columns, axis=1)
    np.sqrt(total, out=total)
    total[missing] = np.nan
    return total


class HeldTracker:
    """Per column, the first row from which a condition held for `window` consecutive rows.

    Fed the condition's rows in order (`feed`, any chunk size); keeps only the last window − 1
    rows between feeds. While fewer than `window` rows were fed, `first()` counts a column that
    held on every row so far (a short run is judged on what it has)."""

    def __init__(self, columns: int, window: int):
        self.window = window
        self.found = np.full(columns, -1, dtype=np.int64)
        self.tail = np.zeros((0, columns), dtype=bool)
        self.rows = 0
        self.since = np.full(columns, -1, dtype=np.int64)  # start of the held run at the end

    def feed(self, held: np.ndarray) -> None:
        if held.shape[0] == 0:
            return
        block = np.concatenate([self.tail, held]) if self.tail.shape[0] else held
        base = self.rows - self.tail.shape[0]
        starts = block.shape[0] - self.window + 1
        if starts > 0:
            whole = block[:starts].copy()
            for shift in range(1, self.window):
                whole &= block[shift : shift + starts]
            fresh = whole.any(axis=0) & (self.found < 0)
            if fresh.any():
                self.found[fresh] = base + whole[:, fresh].argmax(axis=0)
        broken = ~held
        any_broken = broken.any(axis=0)
        last_broken = held.shape[0] - 1 - broken[::-1].argmax(axis=0)
        self.since = np.where(any_broken, np.where(last_broken + 1 < held.shape[0],
                                                   self.rows + last_broken + 1, -1),
                              np.where(self.since >= 0, self.since, self.rows))  # fmt: skip
        keep = min(self.window - 1, block.shape[0])
        self.tail = block[block.shape[0] - keep :].copy() if keep else block[:0].copy()
        self.rows += held.shape[0]

    def first(self) -> np.ndarray:
        if 0 < self.rows < self.window:
            short = self.tail.all(axis=0) & (self.found < 0)
            return np.where(short, 0, self.found)
        return self.found


def earliest(first: np.ndarray) -> tuple[int, np.ndarray]:
    """The earliest start among the columns that held (-1 if none) and those columns."""
    holding = np.flatnonzero(first >= 0)
    if holding.size == 0:
        return -1, holding
    return int(first[holding].min()), holding
