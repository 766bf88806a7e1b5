"""tensor_summary against torch itself: statistics, histogram, and the table's 2-D slice."""

import math

import numpy
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorviz.core.tensors.identity import dtype_name
from tensorviz.core.tensors.summary import histogram, slice_2d, summarize

DTYPES = [
    torch.bool,
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.bfloat16,
    torch.float32,
    torch.float64,
    torch.complex64,
    torch.complex128,
]
LAYOUTS = ["contiguous", "transposed", "stepped", "expanded"]
shapes = st.lists(st.integers(1, 6), min_size=1, max_size=4).map(tuple)


def make_tensor(dtype, shape, seed, specials):
    """Random values of `dtype`; float/complex ones get NaN, ±Inf and a zero when `specials`."""
    generator = torch.Generator().manual_seed(seed)
    real = torch.randn(shape, generator=generator, dtype=torch.float64) * 40
    if dtype == torch.bool:
        return real > 0
    if dtype.is_complex:
        imag = torch.randn(shape, generator=generator, dtype=torch.float64)
        tensor = torch.complex(real, imag).to(dtype)
    elif dtype.is_floating_point:
        tensor = real.to(dtype)
    else:
        tensor = (real.abs() if dtype == torch.uint8 else real).round().to(dtype)
    if specials and (dtype.is_floating_point or dtype.is_complex):
        flat = tensor.view(-1)
        for position, value in zip(
            torch.randperm(flat.numel(), generator=generator)[:4],
            [math.nan, math.inf, -math.inf, 0.0],
            strict=False,
        ):
            flat[position] = value
    return tensor


def in_layout(tensor, layout):
    if layout == "transposed":
        return tensor.transpose(0, -1)
    if layout == "stepped":
        return tensor[..., ::2]
    if layout == "expanded":  # stride 0 along a new leading dim
        return tensor.unsqueeze(0).expand(3, *tensor.shape)
    return tensor


def reference(tensor):
    """What torch itself says, computed the plain way."""
    magnitudes = tensor.abs() if tensor.is_complex() else tensor.to(torch.float64)
    finite = magnitudes[torch.isfinite(magnitudes)]
    return {
        "finite": finite.to(torch.float64),
        "nan_count": int(torch.isnan(tensor).sum()),
        "inf_count": int(torch.isinf(tensor).sum()),
        "zero_count": int((tensor == 0).sum()),
    }


def assert_matches_torch(tensor):
    summary = summarize(tensor)
    expected = reference(tensor.detach())
    finite = expected["finite"]
    assert summary.shape == tuple(tensor.shape)
    assert summary.numel == tensor.numel()
    assert summary.nan_count == expected["nan_count"]
    assert summary.inf_count == expected["inf_count"]
    assert summary.zero_count == expected["zero_count"]
    if finite.numel() == 0:
        assert summary.min is summary.max is summary.mean is summary.std is None
        return summary
    assert summary.min == float(torch.min(finite))
    assert summary.max == float(torch.max(finite))
    # float32 statistics come back as float32 (double-accumulated): 7 significant digits
    assert summary.mean == pytest.approx(float(torch.mean(finite)), rel=1e-6, abs=1e-9)
    if finite.numel() >= 2:
        assert summary.std == pytest.approx(float(torch.std(finite)), rel=1e-6, abs=1e-9)
    else:
        assert summary.std is None
    return summary


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@settings(max_examples=15, deadline=None)
@given(shape=shapes, seed=st.integers(0, 2**31), specials=st.booleans())
def test_summary_equals_torch(dtype, layout, shape, seed, specials):
    assert_matches_torch(in_layout(make_tensor(dtype, shape, seed, specials), layout))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_zero_dim_and_empty_never_raise(dtype):
    scalar = torch.ones((), dtype=dtype)
    summary = assert_matches_torch(scalar)
    assert summary.text().startswith("tensor[] ")
    empty = torch.zeros(0, 3, dtype=dtype)
    summary = summarize(empty)
    assert summary.min is summary.std is None and summary.numel == 0
    assert summary.text().endswith("empty")


def test_text_in_lovely_tensors_style():
    assert (
        summarize(torch.arange(24).reshape(2, 3, 4)).text()
        == "tensor[2, 3, 4] i64 n=24 x∈[0, 23] μ=11.500 σ=7.071 zeros=1"
    )
    assert summarize(torch.tensor(3.0)).text() == "tensor[] f32 3.000"
    assert summarize(torch.zeros(0, 3)).text() == "tensor[0, 3] f32 empty"
    special = summarize(torch.tensor([1.0, math.nan, math.inf, -math.inf, -math.inf]))
    assert special.text().endswith("NaN!=1 +Inf!=1 -Inf!=2")
    assert "NaN!" not in summarize(torch.ones(3)).text()
    assert "|x|∈" in summarize(torch.tensor([3 + 4j])).text()


def test_all_non_finite_and_grad_tensors():
    summary = assert_matches_torch(torch.tensor([math.nan, math.inf]))
    assert summary.text() == "tensor[2] f32 n=2 NaN!=1 +Inf!=1"
    weights = torch.randn(4, 5, requires_grad=True)
    assert_matches_torch(weights * 2)


def test_big_float32_summary_matches_torch_precisely():
    tensor = torch.randn(1000, 1000) + 1e4  # a large offset tests the accumulation precision
    assert_matches_torch(tensor)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@settings(max_examples=10, deadline=None)
@given(shape=shapes, seed=st.integers(0, 2**31), specials=st.booleans(), bins=st.integers(1, 70))
def test_histogram_matches_numpy(dtype, shape, seed, specials, bins):
    tensor = make_tensor(dtype, shape, seed, specials)
    counts, edges = histogram(tensor, bins)
    finite = reference(tensor)["finite"].numpy()
    if finite.size == 0:
        assert counts.size == edges.size == 0
        return
    expected_counts, expected_edges = numpy.histogram(finite, bins=bins)
    assert counts.sum() == finite.size
    numpy.testing.assert_array_equal(counts, expected_counts)
    numpy.testing.assert_array_equal(edges, expected_edges)


def test_histogram_of_nothing_finite_is_empty():
    for tensor in (torch.zeros(0), torch.tensor([math.nan, -math.inf])):
        counts, edges = histogram(tensor)
        assert counts.size == 0 and edges.size == 0


@st.composite
def slice_requests(draw):
    shape = draw(st.lists(st.integers(1, 5), min_size=0, max_size=5).map(tuple))
    dims = list(range(len(shape)))
    row_dim = draw(st.sampled_from([None, *dims]))
    col_dim = draw(st.sampled_from([None, *[d for d in dims if d != row_dim]]))
    fixed = {d: draw(st.integers(0, shape[d] - 1)) for d in dims if d not in (row_dim, col_dim)}
    transposed = draw(st.booleans())
    return shape, row_dim, col_dim, fixed, transposed


@settings(max_examples=200, deadline=None)
@given(request=slice_requests(), seed=st.integers(0, 2**31))
def test_slice_2d_is_a_view_equal_to_indexing(request, seed):
    shape, row_dim, col_dim, fixed, transposed = request
    base = torch.randn(shape[::-1], generator=torch.Generator().manual_seed(seed))
    tensor = base.permute(tuple(reversed(range(len(shape))))) if transposed else base.reshape(shape)
    view = slice_2d(tensor, row_dim, col_dim, fixed)
    index = tuple(slice(None) if d in (row_dim, col_dim) else fixed[d] for d in range(len(shape)))
    expected = tensor[index]
    if row_dim is not None and col_dim is not None and row_dim > col_dim:
        expected = expected.T
    assert view.untyped_storage().data_ptr() == tensor.untyped_storage().data_ptr()
    assert view.data_ptr() == expected.data_ptr() and view.stride() == expected.stride()
    assert torch.equal(view, expected)


def test_slice_2d_edge_cases():
    expanded = torch.arange(4.0).expand(3, 2, 4)
    assert slice_2d(expanded, 0, 2, {1: 1}).stride() == (0, 1)
    empty = torch.zeros(3, 0, 4)
    assert slice_2d(empty, 0, 2, {}).shape == (0, 4)  # no index exists along the empty dim 1
    with pytest.raises(ValueError):
        slice_2d(torch.zeros(2, 2), 1, 1, {})
    with pytest.raises(IndexError):
        slice_2d(torch.zeros(2, 2), 0, 2, {})


def test_expanded_tensor_statistics_equal_the_materialised_tensor_without_copying_it():
    base = torch.tensor([[1.0], [-2.0], [float("nan")], [0.0]])
    expanded = base.expand(4, 1000)
    summary = summarize(expanded)
    full = summarize(expanded.contiguous())
    assert summary.numel == full.numel and summary.shape == full.shape
    assert (summary.nan_count, summary.zero_count) == (full.nan_count, full.zero_count)
    assert summary.min == full.min and summary.max == full.max
    assert summary.mean == pytest.approx(full.mean) and summary.std == pytest.approx(full.std)
    counts, _ = histogram(expanded)
    full_counts, _ = histogram(expanded.contiguous())
    assert counts.tolist() == full_counts.tolist()


def test_huge_expanded_tensor_is_summarised_from_its_few_stored_values():
    huge = torch.ones(1, 1).expand(100_000, 100_000)  # 40 GB if it were materialised
    summary = summarize(huge)
    assert summary.numel == 10**10 and summary.min == summary.max == 1.0


@pytest.mark.parametrize(
    "stored, wider",
    [
        (torch.float8_e4m3fn, torch.float32),
        (torch.uint16, torch.int64),
        (torch.uint32, torch.int64),
    ],
)
def test_dtypes_with_few_kernels_are_summarised_on_a_wider_copy(stored, wider):
    values = torch.tensor([1.5, 0.0, 7.0, 2.0]).to(stored)  # what torch stores, rounded
    widened = values.to(wider)
    summary = summarize(values)
    assert summary.dtype == dtype_name(stored)
    assert summary.min == float(widened.min()) and summary.max == float(widened.max())
    assert summary.zero_count == int((widened == 0).sum())
    counts, _ = histogram(values, 4)
    assert counts.sum() == values.numel()
