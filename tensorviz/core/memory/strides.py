"""Stride geometry: which storage cell each logical element reads, and why a layout is (not)
contiguous. Everything is computed from shape, .stride() and .storage_offset() with NumPy, so a
million elements map in milliseconds; tests check every answer against torch itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import prod

import numpy as np
import torch

from tensorviz.core.translation import _

LETTERS = "ijklmnopqr"  # index names for the formula: i, j, k, ...


@dataclass(frozen=True)
class Layout:
    """The layout facts of one tensor, in elements of its dtype."""

    shape: tuple[int, ...]
    stride: tuple[int, ...]
    offset: int
    element_size: int

    @classmethod
    def of(cls, tensor: torch.Tensor) -> Layout:
        return cls(
            tuple(tensor.shape),
            tuple(tensor.stride()),
            tensor.storage_offset(),
            tensor.element_size(),
        )

    @property
    def numel(self) -> int:
        return prod(self.shape)

    @property
    def byte_stride(self) -> tuple[int, ...]:
        return tuple(s * self.element_size for s in self.stride)


def storage_indices(layout: Layout) -> np.ndarray:
    """An int64 array of the tensor's shape: the storage index every logical element reads."""
    result = np.full((), layout.offset, dtype=np.int64)
    for dim, (size, stride) in enumerate(zip(layout.shape, layout.stride, strict=True)):
        axis_shape = [1] * len(layout.shape)
        axis_shape[dim] = size
        result = result + (np.arange(size, dtype=np.int64) * stride).reshape(axis_shape)
    return np.broadcast_to(result, layout.shape)


def slice_storage_indices(layout: Layout, fixed: Sequence[int | None]) -> np.ndarray:
    """Storage indices of a 2-D slice: `fixed` gives an index for every dim except the two
    shown (marked None), e.g. (1, None, None) for x[1, :, :]. A 0-d or 1-d tensor gives 1 row."""
    offset = layout.offset + sum(
        i * s for i, s in zip(fixed, layout.stride, strict=True) if i is not None
    )
    free = [d for d, i in enumerate(fixed) if i is None]
    shape = tuple(layout.shape[d] for d in free)
    stride = tuple(layout.stride[d] for d in free)
    while len(shape) < 2:
        shape, stride = (1, *shape), (0, *stride)
    return storage_indices(Layout(shape, stride, offset, layout.element_size))


def storage_index_of(layout: Layout, index: Sequence[int]) -> int:
    return layout.offset + sum(i * s for i, s in zip(index, layout.stride, strict=True))


def elements_reading(layout: Layout, cell: int, limit: int | None = None) -> np.ndarray:
    """Every logical index (one row each, in logical order) whose element reads storage `cell`."""
    found = np.argwhere(storage_indices(layout) == cell)
    return found if limit is None else found[:limit]


def index_names(ndim: int) -> list[str]:
    return [LETTERS[d] if d < len(LETTERS) else f"i{d}" for d in range(ndim)]


def formula(layout: Layout, index: Sequence[int]) -> tuple[str, str]:
    """('offset + i·s0 + j·s1 = index', '2 + 1·4 + 3·1 = 9'): the rule and the rule with numbers."""
    names = index_names(len(layout.shape))
    terms = "".join(f" + {n}·s{d}" for d, n in enumerate(names))
    symbolic = _("offset{terms} = index").format(terms=terms)  # the rule's words translated
    terms = [str(layout.offset)] + [f"{i}·{s}" for i, s in zip(index, layout.stride, strict=True)]
    numeric = " + ".join(terms) + f" = {storage_index_of(layout, index)}"
    return symbolic, numeric


def walk_order(layout: Layout) -> np.ndarray:
    """Storage indices in logical (row-major) order: how a loop over the tensor reads memory."""
    return storage_indices(layout).reshape(-1)


def read_counts(layout: Layout, cells: int) -> np.ndarray:
    """How many logical elements read each storage cell (0: unread, >1: stride 0 or overlap).

    Fast path: dims of stride 0 only multiply the count, and when the other dims never land on
    one cell twice, the counts are written through a strided view of the result, with no
    index array at all. Anything else (overlapping as_strided windows) is counted with bincount."""
    counts = np.zeros(cells, dtype=np.int64)
    if layout.numel == 0:
        return counts
    repeat, dims = 1, []
    for size, stride in zip(layout.shape, layout.stride, strict=True):
        if size > 1 and stride == 0:
            repeat *= size
        elif size > 1:
            dims.append((stride, size))
    dims.sort()
    last = layout.offset + sum(stride * (size - 1) for stride, size in dims)
    if _never_overlaps(dims) and 0 <= layout.offset and last < cells:
        view = np.lib.stride_tricks.as_strided(
            counts[layout.offset :],
            shape=tuple(size for _unused, size in dims),
            strides=tuple(stride * counts.itemsize for stride, _unused in dims),
        )
        view[...] = repeat
        return counts
    indices = storage_indices(layout).reshape(-1)
    indices = indices[(indices >= 0) & (indices < cells)]
    return np.bincount(indices, minlength=cells)[:cells]


CACHED_CELLS_UP_TO = 4_000_000  # bigger storages are counted afresh rather than kept in memory


def cached_read_counts(layout: Layout, cells: int) -> np.ndarray:
    """read_counts remembered by layout (counts depend on the layout alone, never on values);
    read-only, since every caller shares the array."""
    if cells > CACHED_CELLS_UP_TO:
        return read_counts(layout, cells)
    return _remembered_read_counts(layout, cells)


def forget_read_counts() -> None:
    """Empty the memory of cached_read_counts (benchmarks measure a first draw)."""
    _remembered_read_counts.cache_clear()


@lru_cache(maxsize=32)
def _remembered_read_counts(layout: Layout, cells: int) -> np.ndarray:
    counts = read_counts(layout, cells)
    counts.flags.writeable = False
    return counts


def _never_overlaps(dims: list[tuple[int, int]]) -> bool:
    """(stride, size) pairs sorted by stride: each stride passes the span of all smaller ones."""
    span = 0
    for stride, size in dims:
        if stride <= span:
            return False
        span += stride * (size - 1)
    return True


@dataclass(frozen=True)
class WalkStep:
    position: int  # 0-based position in logical (row-major) order
    index: tuple[int, ...]
    storage_index: int
    jump: int | None  # storage_index minus the previous step's (None at the start)


def walk_step(layout: Layout, position: int) -> WalkStep:
    index = tuple(int(i) for i in np.unravel_index(position, layout.shape)) if layout.shape else ()
    here = storage_index_of(layout, index)
    if position == 0:
        return WalkStep(position, index, here, None)
    before = np.unravel_index(position - 1, layout.shape) if layout.shape else ()
    return WalkStep(position, index, here, here - storage_index_of(layout, before))


def stride_zero_dims(layout: Layout) -> list[int]:
    """Dims whose elements all read one storage cell (expand / broadcast_to)."""
    return [
        d
        for d, (n, s) in enumerate(zip(layout.shape, layout.stride, strict=True))
        if s == 0 and n > 1
    ]


@dataclass(frozen=True)
class ContiguityBreak:
    dim: int
    expected: int  # the stride a contiguous tensor would have here
    actual: int
    text: str


@dataclass(frozen=True)
class ContiguityReport:
    is_contiguous: bool
    contiguous_strides: tuple[int, ...]
    breaks: tuple[ContiguityBreak, ...]
    copy_bytes: int  # what .contiguous() / .reshape() would copy (0 when already contiguous)

    def text(self) -> str:
        if self.is_contiguous:
            return _(
                "Contiguous: reading the elements in logical order walks the storage one cell "
                "at a time, so view() can reshape it freely."
            )
        lines = [
            _("Not contiguous — a contiguous tensor of this shape has strides {strides}.").format(
                strides=_tuple(self.contiguous_strides)
            )
        ]
        lines += [b.text for b in self.breaks]
        lines.append(
            _(".contiguous() or .reshape() would copy {count} bytes into new storage.").format(
                count=f"{self.copy_bytes:,}"
            )
        )
        return "\n".join(lines)


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def contiguity(layout: Layout) -> ContiguityReport:
    """torch's rule: skipping dims of size 1, the last dim has stride 1 and each other dim i has
    stride[i] == stride[i+1] · size[i+1] (next dim of size > 1). Breaks are named."""
    breaks: list[ContiguityBreak] = []
    if layout.numel > 1:
        dims = [d for d, n in enumerate(layout.shape) if n != 1]
        for position, dim in enumerate(dims):
            actual = layout.stride[dim]
            if position == len(dims) - 1:
                if actual != 1:
                    breaks.append(ContiguityBreak(dim, 1, actual, _last_dim_text(dim, actual)))
                continue
            inner = dims[position + 1]
            expected = layout.stride[inner] * layout.shape[inner]
            if actual != expected:
                text = _break_text(dim, inner, actual, layout.stride[inner], layout.shape[inner])
                breaks.append(ContiguityBreak(dim, expected, actual, text))
    copy_bytes = 0 if not breaks else layout.numel * layout.element_size
    return ContiguityReport(not breaks, contiguous_strides(layout.shape), tuple(breaks), copy_bytes)


def _break_text(dim: int, inner: int, actual: int, inner_stride: int, inner_size: int) -> str:
    """Why dim `dim` breaks contiguity: its stride is not the next dim's stride times size."""
    if actual == 0:
        template = _(
            "dim {dim}: stride[{dim}] = {actual} but stride[{inner}]·size[{inner}] = "
            "{inner_stride}·{inner_size} = {expected} — stride 0: one cell is read again and again"
        )
    else:
        template = _(
            "dim {dim}: stride[{dim}] = {actual} but stride[{inner}]·size[{inner}] = "
            "{inner_stride}·{inner_size} = {expected}"
        )
    return template.format(
        dim=dim,
        inner=inner,
        actual=actual,
        inner_stride=inner_stride,
        inner_size=inner_size,
        expected=inner_stride * inner_size,
    )


def _last_dim_text(dim: int, actual: int) -> str:
    return _(
        "dim {dim} (the innermost): stride {actual}, but neighbours in memory need stride 1"
    ).format(dim=dim, actual=actual)


def _tuple(values: Sequence[int]) -> str:
    return "(" + ", ".join(map(str, values)) + ("," if len(values) == 1 else "") + ")"


@dataclass(frozen=True)
class ViewCheck:
    """Whether view(new_shape) can reuse the storage, and if not, which dims would have to merge."""

    new_shape: tuple[int, ...]
    strides: tuple[int, ...] | None  # the view's strides, None when torch must refuse
    blocked_merge: tuple[int, int] | None  # old dims (d, d+1) that would have to merge
    copy_bytes: int

    def text(self) -> str:
        if self.strides is not None:
            return _("view{shape} works: strides {strides}, no copy.").format(
                shape=_tuple(self.new_shape), strides=_tuple(self.strides)
            )
        d0, d1 = self.blocked_merge or (0, 0)
        return _(
            "view{shape} is refused: dims {d0} and {d1} would have to merge into one, but they "
            "are not adjacent in memory (stride[{d0}] ≠ stride[{d1}]·size[{d1}]). "
            ".reshape{shape} would copy {count} bytes."
        ).format(shape=_tuple(self.new_shape), d0=d0, d1=d1, count=f"{self.copy_bytes:,}")


def check_view(layout: Layout, new_shape: Sequence[int]) -> ViewCheck:
    """torch's own algorithm (ATen computeStride): old dims split into chunks that are contiguous
    within themselves; each chunk must map onto whole new dims. -1 is not resolved here."""
    old_shape, old_stride, new_shape = layout.shape, layout.stride, tuple(new_shape)
    numel = layout.numel
    copy_bytes = numel * layout.element_size
    if prod(new_shape) != numel:
        raise ValueError(f"shape {list(new_shape)} is invalid for input of size {numel}")
    if not old_shape:
        return ViewCheck(new_shape, (1,) * len(new_shape), None, 0)
    if numel == 0:
        if old_shape == new_shape:
            return ViewCheck(new_shape, old_stride, None, 0)
        return ViewCheck(new_shape, contiguous_strides(new_shape), None, 0)
    new_stride = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base = old_stride[-1]
    tensor_numel = view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        chunk_ends = tensor_d == 0 or (
            old_shape[tensor_d - 1] != 1 and old_stride[tensor_d - 1] != tensor_numel * chunk_base
        )
        if chunk_ends:
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_stride[view_d] = view_numel * chunk_base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return ViewCheck(
                    new_shape, None, (max(tensor_d - 1, 0), max(tensor_d, 1)), copy_bytes
                )
            if tensor_d > 0:
                chunk_base = old_stride[tensor_d - 1]
                tensor_numel = view_numel = 1
    if view_d != -1:
        return ViewCheck(new_shape, None, (0, 1), copy_bytes)
    return ViewCheck(new_shape, tuple(new_stride), None, 0)
