"""Which storage cells a layout reads and who reads a cell, answered from the strides alone.

The Memory layout area never needs an answer for every element at once: the grid shows a few
hundred cells or one sampled pixel each, the strips one pixel column per bin. So the storage index
of a 2-D slice is an affine map (StorageSlice) evaluated only where it is drawn, the readers of a
cell are solved from offset + Σ i·stride = cell, and read counts / "any read in this bin" come
from mixed-radix arithmetic when the dims never overlap (every layout made by slicing, transpose,
permute, expand). Overlapping windows (as_strided, unfold) are the exception: `StorageReads`
then needs the materialised counts of strides.read_counts, which callers compute off the GUI
thread for big tensors. Tests check every answer against torch's own data pointers."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import gcd, prod

import numpy as np

from tensorviz.core.memory.strides import Layout

READERS_LIMIT = 10_000  # readers listed for one cell; the total is still exact
NOWHERE = np.iinfo(np.int64).max  # "no read cell at or after this one"


@dataclass(frozen=True)
class StorageSlice:
    """The storage index of each cell of a 2-D slice: offset + row·row_stride + col·col_stride.
    Indexable like the int64 array it stands for, without ever materialising it."""

    rows: int
    cols: int
    offset: int = 0
    row_stride: int = 0
    col_stride: int = 0

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def T(self) -> StorageSlice:  # noqa: N802 — mirrors ndarray.T
        return StorageSlice(self.cols, self.rows, self.offset, self.col_stride, self.row_stride)

    def __getitem__(self, position: tuple[int, int]) -> int:
        row, col = (int(p) for p in position)
        if not (-self.rows <= row < self.rows and -self.cols <= col < self.cols):
            raise IndexError(f"({row}, {col}) is outside a slice of shape {self.shape}")
        row, col = row % self.rows, col % self.cols
        return self.offset + row * self.row_stride + col * self.col_stride

    def block(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Storage indices of the cells rows × cols (1-D integer arrays): a len(rows)×len(cols)
        array, the size of what is drawn."""
        rows = np.asarray(rows, dtype=np.int64)[:, None]
        cols = np.asarray(cols, dtype=np.int64)[None, :]
        return self.offset + rows * self.row_stride + cols * self.col_stride

    def tolist(self) -> list[list[int]]:
        return self.block(np.arange(self.rows), np.arange(self.cols)).tolist()


def storage_slice(layout: Layout, fixed: Sequence[int | None]) -> StorageSlice:
    """The 2-D slice of `layout` that strides.slice_storage_indices would materialise: `fixed`
    gives an index for every dim except the (at most two) shown ones, marked None."""
    offset = layout.offset + sum(
        i * s for i, s in zip(fixed, layout.stride, strict=True) if i is not None
    )
    free = [d for d, i in enumerate(fixed) if i is None]
    shape = [layout.shape[d] for d in free]
    stride = [layout.stride[d] for d in free]
    while len(shape) < 2:
        shape, stride = [1, *shape], [0, *stride]
    return StorageSlice(shape[0], shape[1], offset, stride[0], stride[1])


def never_overlaps(layout: Layout) -> bool:
    """Ignoring stride-0 dims, no two elements read one cell (so each read cell has
    exactly `repeat` readers): each stride passes the span of all smaller ones."""
    span = 0
    for stride, size in _moving_dims(layout):
        if stride <= span:
            return False
        span += stride * (size - 1)
    return True


def _moving_dims(layout: Layout) -> list[tuple[int, int]]:
    """(stride, size) of the dims that move in memory, smallest stride first."""
    pairs = zip(layout.stride, layout.shape, strict=True)
    return sorted((s, n) for s, n in pairs if n > 1 and s != 0)


def _repeat(layout: Layout) -> int:
    """How many elements read each read cell because of stride-0 dims."""
    return prod(n for n, s in zip(layout.shape, layout.stride, strict=True) if s == 0 and n > 1)


@dataclass
class StorageReads:
    """Read counts of one layout on a strip of `cells` cells, asked for only where drawn.

    Analytic when the layout never overlaps; otherwise it answers from `counts` (the full
    strides.read_counts array) once someone has supplied it, and None until then."""

    layout: Layout
    cells: int
    counts: np.ndarray | None = None
    analytic: bool = field(init=False)
    _read_cells: tuple[np.ndarray, np.ndarray] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.analytic = never_overlaps(self.layout)

    @property
    def known(self) -> bool:
        return self.analytic or self.counts is not None or self.layout.numel == 0

    def counts_at(self, cells: np.ndarray) -> np.ndarray | None:
        """How many elements read each of `cells` (an int array); None while unknown."""
        cells = np.asarray(cells, dtype=np.int64)
        if self.layout.numel == 0:
            return np.zeros(cells.shape, dtype=np.int64)
        if self.counts is not None:
            inside = (cells >= 0) & (cells < len(self.counts))
            found = np.zeros(cells.shape, dtype=np.int64)
            found[inside] = self.counts[cells[inside]]
            return found
        if not self.analytic:
            return None
        rest = cells - self.layout.offset
        hit = rest >= 0
        for stride, size in reversed(_moving_dims(self.layout)):
            digit = rest // stride
            hit &= digit < size
            rest = rest - np.minimum(digit, size - 1) * stride
        hit &= rest == 0
        return np.where(hit, _repeat(self.layout), 0).astype(np.int64)

    def any_read(self, starts: np.ndarray, stop: int) -> np.ndarray | None:
        """For bins [starts[i], starts[i+1]) (the last ends at `stop`; starts ascending):
        whether any cell of the bin is read; a bin that repeats its successor's start (cells
        wider than a pixel) stands for its one cell. None while unknown."""
        starts = np.asarray(starts, dtype=np.int64)
        ends = np.maximum(np.append(starts[1:], stop), starts + 1)
        if self.layout.numel == 0:
            return np.zeros(starts.shape, dtype=bool)
        if self.counts is not None:
            if self._read_cells is None or self._read_cells[0] is not self.counts:
                self._read_cells = (self.counts, np.flatnonzero(self.counts))  # once per counts
            read = self._read_cells[1]
            return np.searchsorted(read, starts) < np.searchsorted(read, ends)
        if not self.analytic:
            return None
        return next_read(self.layout, starts) < ends


def next_read(layout: Layout, starts: np.ndarray) -> np.ndarray:
    """The first cell at or after each of `starts` that a never-overlapping layout reads
    (NOWHERE when none): mixed-radix digits from the largest stride down, with a carry."""
    dims = list(reversed(_moving_dims(layout)))  # largest stride first
    rest = np.asarray(starts, dtype=np.int64) - layout.offset
    if layout.numel == 0:
        return np.full(rest.shape, NOWHERE, dtype=np.int64)
    before = rest <= 0
    rest = np.maximum(rest, 0)
    if not dims:
        found = np.where(before, layout.offset, NOWHERE)
        return found.astype(np.int64)
    digits = np.zeros((len(dims), len(rest)), dtype=np.int64)
    broken = np.full(len(rest), len(dims), dtype=np.int64)  # first level that cannot fit
    for level, (stride, size) in enumerate(dims):
        digit = rest // stride
        over = (digit > size - 1) & (broken == len(dims))
        broken[over] = level
        digit = np.minimum(digit, size - 1)
        digits[level] = digit
        rest = rest - digit * stride
    exact = (broken == len(dims)) & (rest == 0)
    # Carry: the deepest level above the break whose digit can still grow.
    carry = np.full(len(rest), -1, dtype=np.int64)
    for level, (_, size) in enumerate(dims):
        grows = (level < broken) & (digits[level] < size - 1)
        carry[grows] = level
    strides = np.array([s for s, _ in dims], dtype=np.int64)[:, None]
    levels = np.arange(len(dims))[:, None]
    kept = np.where(levels < carry[None, :], digits, 0)
    kept = kept + np.where(levels == carry[None, :], digits + 1, 0)
    value = (kept * strides).sum(axis=0)
    exact_value = (digits * strides).sum(axis=0)
    found = np.where(exact, exact_value, np.where(carry >= 0, value, -1))
    found = np.where(before, 0, found)
    return np.where(found < 0, NOWHERE, found + layout.offset).astype(np.int64)


def readers_of(layout: Layout, cell: int, limit: int = READERS_LIMIT) -> tuple[np.ndarray, int]:
    """(the first `limit` logical indices reading storage `cell`, in logical order, one row
    each; how many there are in all), solved from the strides without an index array."""
    ndim = len(layout.shape)
    empty = np.zeros((0, ndim), dtype=np.int64)
    rest = cell - layout.offset
    if layout.numel == 0 or rest < 0:
        return empty, 0
    moving = [d for d in range(ndim) if layout.shape[d] > 1 and layout.stride[d] != 0]
    solver = _Solver([(layout.stride[d], layout.shape[d]) for d in moving])
    per_moving = solver.count(0, rest)
    total = per_moving * _repeat(layout)
    if not total:
        return empty, 0
    solutions = sorted(solver.solutions(rest, limit))  # moving digits, logical order
    zero = [d for d in range(ndim) if layout.shape[d] > 1 and layout.stride[d] == 0]
    rows = list(itertools.islice(_merge(ndim, moving, solutions, zero, layout.shape), limit))
    found = np.array(rows, dtype=np.int64).reshape(len(rows), ndim)
    return found, total


def readers_in_slice(
    readers: np.ndarray, fixed: Sequence[int | None], row_dim: int | None, col_dim: int | None
) -> list[tuple[int, int]]:
    """The (row, col) grid cells of those `readers` (logical indices, one row each) that lie
    in the 2-D slice `fixed` (None for the shown dims; row_dim/col_dim None for 0-d and 1-d)."""
    if not len(readers):
        return []
    keep = np.ones(len(readers), dtype=bool)
    for dim, index in enumerate(fixed):
        if index is not None:
            keep &= readers[:, dim] == index
    shown = readers[keep]
    zeros = np.zeros(len(shown), dtype=np.int64)
    rows = shown[:, row_dim] if row_dim is not None else zeros
    cols = shown[:, col_dim] if col_dim is not None else zeros
    return list(zip(rows.tolist(), cols.tolist(), strict=True))


def _merge(ndim, moving, solutions, zero, shape):
    """Full indices in logical order: each moving solution combined with every stride-0
    position, sorted lexicographically without building the whole product first."""
    for index in _merge_from(0, ndim, moving, solutions, zero, shape, [0] * ndim):
        yield tuple(index)


def _merge_from(dim, ndim, moving, solutions, zero, shape, index):
    if dim == ndim:
        yield index
        return
    if dim in zero:
        for i in range(shape[dim]):
            index[dim] = i
            yield from _merge_from(dim + 1, ndim, moving, solutions, zero, shape, index)
        return
    if dim not in moving:
        index[dim] = 0
        yield from _merge_from(dim + 1, ndim, moving, solutions, zero, shape, index)
        return
    position = moving.index(dim)
    for value, group in itertools.groupby(solutions, key=lambda s: s[position]):
        index[dim] = value
        yield from _merge_from(dim + 1, ndim, moving, list(group), zero, shape, index)


class _Solver:
    """Solutions of Σ i_k·stride_k = rest with 0 ≤ i_k < size_k, searched from the largest
    stride down (tight ranges) and pruned by memoised counts, so no dead end is walked."""

    def __init__(self, dims: list[tuple[int, int]]) -> None:
        self.logical = dims
        self.order = sorted(range(len(dims)), key=lambda k: -dims[k][0])
        self.dims = [dims[k] for k in self.order]
        self.reach = [0] * (len(dims) + 1)
        self.step = [0] * (len(dims) + 1)
        for level in range(len(dims) - 1, -1, -1):
            stride, size = self.dims[level]
            self.reach[level] = self.reach[level + 1] + stride * (size - 1)
            self.step[level] = gcd(self.step[level + 1], stride)
        self._memo: dict[tuple[int, int], int] = {}

    def _choices(self, level: int, rest: int) -> range:
        stride, size = self.dims[level]
        low = max(0, -(-(rest - self.reach[level + 1]) // stride))
        return range(low, min(size - 1, rest // stride) + 1)

    def count(self, level: int, rest: int) -> int:
        if level == len(self.dims):
            return int(rest == 0)
        if rest < 0 or rest > self.reach[level] or rest % max(self.step[level], 1):
            return 0
        key = (level, rest)
        if key not in self._memo:
            stride = self.dims[level][0]
            self._memo[key] = sum(
                self.count(level + 1, rest - i * stride) for i in self._choices(level, rest)
            )
        return self._memo[key]

    def solutions(self, rest: int, limit: int) -> list[tuple[int, ...]]:
        """Up to `limit`·(a few) solutions as digits in logical dim order."""
        found: list[tuple[int, ...]] = []
        digits = [0] * len(self.dims)

        def walk(level: int, left: int) -> None:
            if len(found) >= limit:
                return
            if level == len(self.dims):
                logical = [0] * len(self.dims)
                for position, k in enumerate(self.order):
                    logical[k] = digits[position]
                found.append(tuple(logical))
                return
            stride = self.dims[level][0]
            for i in self._choices(level, left):
                if self.count(level + 1, left - i * stride):
                    digits[level] = i
                    walk(level + 1, left - i * stride)

        walk(0, rest)
        return found
