"""A steps × names table that grows both ways without copying on every append.

Rows are steps as they arrive; columns are parameter or module names, added when a later schema
names more (parameters unfrozen later). Missing cells are NaN. `values` is a view of the filled
part, so a viewer can hand it to NumPy (a heatmap's colours) without a copy.
"""

from __future__ import annotations

import numpy as np


class SeriesTable:
    def __init__(self, dtype=np.float32):
        self._dtype = np.dtype(dtype)
        self._data = np.full((0, 0), np.nan, dtype=self._dtype)
        self.rows = 0
        self.names: list[str] = []
        self._index: dict[str, int] = {}

    @property
    def values(self) -> np.ndarray:
        return self._data[: self.rows, : len(self.names)]

    def column(self, name: str) -> np.ndarray:
        return self.values[:, self._index[name]]

    def index_of(self, name: str) -> int | None:
        return self._index.get(name)

    def columns_for(self, names: list[str]) -> np.ndarray:
        """Column indices of `names` (added first where new), for `append_row`."""
        for name in names:
            if name not in self._index:
                self._index[name] = len(self.names)
                self.names.append(name)
        return np.fromiter((self._index[n] for n in names), dtype=np.int64, count=len(names))

    def append_row(self, columns: np.ndarray | None = None, values: np.ndarray | None = None):
        self._reserve(self.rows + 1, len(self.names))
        if columns is not None and values is not None and len(columns):
            self._data[self.rows, columns] = values
        self.rows += 1

    def _reserve(self, rows: int, columns: int) -> None:
        have_rows, have_columns = self._data.shape
        if rows <= have_rows and columns <= have_columns:
            return
        grown = np.full(
            (max(rows, have_rows * 2, 64), max(columns, have_columns + have_columns // 2, 8)),
            np.nan,
            dtype=self._dtype,
        )
        grown[:have_rows, :have_columns] = self._data
        self._data = grown
