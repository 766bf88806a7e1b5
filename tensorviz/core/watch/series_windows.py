"""The vectorised building blocks of the diagnoses: per-layer norms from per-parameter norms,
and "held over a window of consecutive rows", on steps × columns tables in NumPy.

A run of 100k steps × 500 parameters is a 200 MB float32 table; everything here walks it in
row chunks (a few MB each), one NumPy call per chunk, never a Python loop per cell.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

CHUNK_ROWS = 8192


def row_chunks(rows: int, size: int = CHUNK_ROWS) -> Iterator[slice]:
    for start in range(0, rows, size):
        yield slice(start, min(rows, start + size))


def group_norms(values: np.ndarray, groups: list[np.ndarray]) -> np.ndarray:
    """rows × groups: the 2-norm of each group's columns, sqrt(Σ v²) — the norm of the layer's
    parameters taken together, since each column is one parameter's norm. Non-finite cells are
    left out; a group with no finite cell in a row is NaN there."""
    rows = values.shape[0]
    result = np.full((rows, len(groups)), np.nan, dtype=np.float64)
    if not groups or rows == 0:
        return result
    order = np.concatenate(groups)
    starts = np.cumsum([0] + [len(g) for g in groups[:-1]])
    for chunk in row_chunks(rows):
        part = values[chunk][:, order].astype(np.float64)
        finite = np.isfinite(part)
        part[~finite] = 0.0
        np.square(part, out=part)
        sums = np.add.reduceat(part, starts, axis=1)
        counts = np.add.reduceat(finite, starts, axis=1)
        result[chunk] = np.where(counts > 0, np.sqrt(sums), np.nan)
    return result


def first_held(held: np.ndarray, window: int) -> np.ndarray:
    """Per column, the first row from which `held` is True for `window` consecutive rows (fewer
    when the table has fewer rows: then every row), or -1. `held`: rows × columns booleans."""
    rows = held.shape[0]
    columns = held.shape[1] if held.ndim == 2 else 0
    first = np.full(columns, -1, dtype=np.int64)
    if rows == 0 or columns == 0:
        return first
    window = max(1, min(window, rows))
    starts = rows - window + 1
    for chunk in row_chunks(starts):
        stop = chunk.stop + window - 1
        part = held[chunk.start : stop]
        whole = part[: len(part) - window + 1].copy()
        for shift in range(1, window):
            whole &= part[shift : shift + len(whole)]
        found = whole.any(axis=0)
        fresh = found & (first < 0)
        if fresh.any():
            first[fresh] = chunk.start + whole[:, fresh].argmax(axis=0)
        if (first >= 0).all():
            break
    return first


def held_from(first: np.ndarray) -> tuple[int, np.ndarray]:
    """The earliest start among the columns that held (-1 if none) and those columns."""
    holding = np.flatnonzero(first >= 0)
    if holding.size == 0:
        return -1, holding
    return int(first[holding].min()), holding


def early_level(values: np.ndarray, window: int) -> np.ndarray:
    """Per column, the median of its first `window` finite, positive values (NaN if none): the
    level a run starts at, robust to one odd first step."""
    columns = values.shape[1]
    level = np.full(columns, np.nan)
    head = values[: max(window * 4, window)]
    for column in range(columns):  # columns only (a few), never cells
        good = head[:, column]
        good = good[np.isfinite(good) & (good > 0)][:window]
        if good.size:
            level[column] = float(np.median(good))
    return level
