"""Where a rank's non-finite counts are, by row, read incrementally: a run that turned NaN has
a count for nearly every parameter of every later step, so the diagnoses index the reader's
list once (only its new entries on each call) instead of walking it whole each time."""

from __future__ import annotations

from bisect import bisect_left

import numpy as np


class NonFiniteIndex:
    """The series rows that have non-finite counts (in order, as the reader appends them), where
    each row's entries start in the reader's list, and the rows with a non-finite gradient."""

    def __init__(self):
        self.read = 0
        self._rows: list[int] = []
        self._starts: list[int] = []
        self._grad_rows: list[int] = []
        self.rows = np.zeros(0, dtype=np.int64)
        self.grad_rows = np.zeros(0, dtype=np.int64)

    def update(self, entries: list[dict]) -> None:
        if len(entries) < self.read:  # another list: start again
            self.__init__()
        if len(entries) == self.read:
            return
        for index in range(self.read, len(entries)):  # each new entry once
            entry = entries[index]
            row = entry["row"]
            if not self._rows or self._rows[-1] != row:
                self._rows.append(row)
                self._starts.append(index)
            if entry["what"] == "grad" and (not self._grad_rows or self._grad_rows[-1] != row):
                self._grad_rows.append(row)
        self.read = len(entries)
        self.rows = np.asarray(self._rows, dtype=np.int64)
        self.grad_rows = np.asarray(self._grad_rows, dtype=np.int64)

    def entries_at(self, entries: list[dict], row: int) -> list[dict]:
        at = bisect_left(self._rows, row)
        if at == len(self._rows) or self._rows[at] != row:
            return []
        end = self._starts[at + 1] if at + 1 < len(self._starts) else self.read
        return [dict(e) for e in entries[self._starts[at] : end]]

    @staticmethod
    def view_rows(series_rows: np.ndarray, rows: np.ndarray | None) -> np.ndarray:
        """`series_rows` as rows of a view over the series rows `rows` (None: all), dropping
        those the view does not hold."""
        if rows is None or series_rows.size == 0:
            return series_rows
        at = np.searchsorted(rows, series_rows)
        inside = at < len(rows)
        inside[inside] = rows[at[inside]] == series_rows[inside]
        return at[inside]
