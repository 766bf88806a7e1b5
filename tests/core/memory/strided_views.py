"""Hypothesis strategies for strided tensors over a numbered storage (base[i] == i), shared by
the stride-geometry and storage-read tests: what torch reads is then readable from the values."""

import numpy as np
import torch
from hypothesis import strategies as st

shapes = st.lists(st.integers(0, 5), min_size=0, max_size=4).map(tuple)


@st.composite
def strided_tensors(draw, spare_storage: bool = False):
    """A tensor made by as_strided over a numbered storage: any strides (0 too), any offset;
    `spare_storage` leaves a few unread elements after the last one read."""
    shape = draw(shapes)
    stride = tuple(draw(st.integers(0, 7)) for _ in shape)
    offset = draw(st.integers(0, 6))
    needed = offset + sum((n - 1) * s for n, s in zip(shape, stride, strict=True) if n) + 1
    spare = draw(st.integers(0, 5)) if spare_storage else 0
    base = torch.arange(float(needed + spare))
    return base, base.as_strided(shape, stride, offset)


@st.composite
def sliced_views(draw):
    """Views made the way users make them: slicing with steps, transposes, expand."""
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=4)))
    base = torch.arange(float(np.prod(shape))).reshape(shape)
    index = tuple(slice(draw(st.integers(0, n - 1)), None, draw(st.integers(1, 3))) for n in shape)
    view = base[index]
    if view.dim() >= 2 and draw(st.booleans()):
        view = view.transpose(0, view.dim() - 1)
    if draw(st.booleans()):
        view = view.unsqueeze(0).expand(3, *view.shape)
    return base, view


def torch_storage_indices(view) -> np.ndarray:
    """torch's own answer: the storage element each logical position reads (base holds it)."""
    return view.contiguous().numpy().astype(np.int64)
