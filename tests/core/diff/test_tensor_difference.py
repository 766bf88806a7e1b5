"""The figures of one pair against torch's own computation of the same thing in float64 (the
wide dtype the comparison promises): max |Δ|, mean |Δ|, ‖Δ‖/‖A‖, cosine, changed elements,
tolerance as torch.isclose, NaN/Inf, dtype casts, reshapes; chunk boundaries crossed."""

import math

import pytest
import torch
import torch.nn.functional as F  # noqa: N812 — torch's own convention

from tensorviz.core.diff import tensor_difference
from tensorviz.core.diff.tensor_difference import ComparisonCancelledError, compare_tensors


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch):
    # several chunks even for small tensors: the sums across chunks must add up
    monkeypatch.setattr(tensor_difference, "CHUNK_ELEMENTS", 1000)


def torch_figures(a: torch.Tensor, b: torch.Tensor) -> dict:
    a, b = a.double().reshape(-1), b.double().reshape(-1)
    both = torch.isfinite(a) & torch.isfinite(b)
    fa, fb = a[both], b[both]
    delta = (fb - fa).abs()
    return {
        "max_abs": delta.max().item(),
        "mean_abs": delta.mean().item(),
        "relative": (torch.linalg.vector_norm(fb - fa) / torch.linalg.vector_norm(fa)).item(),
        "cosine": F.cosine_similarity(fa, fb, dim=0).item(),
        "changed": int((~((a == b) | (a.isnan() & b.isnan()))).sum()),
    }


def assert_figures(values, expected) -> None:
    assert values.max_abs == expected["max_abs"]  # the same float64 subtraction: exact
    assert values.mean_abs == pytest.approx(expected["mean_abs"], rel=1e-12)
    assert values.relative == pytest.approx(expected["relative"], rel=1e-12)
    assert values.cosine == pytest.approx(expected["cosine"], rel=1e-12)
    assert values.changed == expected["changed"]


def test_a_fine_tuned_copy_against_torch():
    torch.manual_seed(0)
    a = torch.randn(64, 97)
    b = a.clone()
    b[:10] += 1e-3 * torch.randn(10, 97)
    result = compare_tensors(a, b)
    assert result.bitwise_equal is False and result.notes == ()
    assert_figures(result.values, torch_figures(a, b))
    assert result.values.changed == int((a != b).sum()) <= 970
    assert result.values.changed_fraction == result.values.changed / a.numel()
    assert result.values.nan_appeared == result.values.inf_appeared == 0


def test_identical_values_are_bitwise_equal_with_nothing_changed():
    a = torch.randn(3000)
    a[7] = float("nan")
    result = compare_tensors(a, a.clone())
    assert result.bitwise_equal is True
    assert result.values.changed == 0 and result.values.max_abs == 0.0
    assert result.values.nan_a == result.values.nan_b == 1 and result.values.nan_appeared == 0
    finite = a[~a.isnan()].double()
    assert result.values.sum_sq_a == pytest.approx(float(finite @ finite), rel=1e-12)


def test_nan_and_inf_appearing_are_counted_and_left_out_of_the_figures():
    a = torch.randn(2500)
    b = a + 0.01
    b[[3, 1500]] = float("nan")
    b[2000] = float("inf")
    result = compare_tensors(a, b)
    values = result.values
    assert (values.nan_b, values.nan_appeared, values.inf_appeared) == (2, 2, 1)
    assert values.finite == 2500 - 3
    assert_figures(values, torch_figures(a, b))
    assert math.isfinite(values.max_abs)


def test_dtype_cast_is_compared_in_a_wider_dtype_with_a_note():
    a = torch.randn(4000)
    b = a.to(torch.bfloat16)
    result = compare_tensors(a, b)
    assert result.bitwise_equal is None
    (note,) = result.notes
    assert "float32 → bfloat16" in note and "common dtype is float32" in note
    assert_figures(result.values, torch_figures(a, b))


def test_float8_has_no_promotion_but_is_still_compared():
    a = torch.randn(500)
    b = a.to(torch.float8_e4m3fn)
    result = compare_tensors(a, b)
    assert "common dtype" not in result.notes[0] and "float64" in result.notes[0]
    assert_figures(result.values, torch_figures(a, b.float()))


def test_integers_are_compared_exactly_beyond_float64_precision():
    a = torch.tensor([2**60, 5, 7], dtype=torch.int64)
    b = a.clone()
    b[0] += 1  # float64 cannot tell 2**60 from 2**60 + 1
    result = compare_tensors(a, b)
    assert result.values.changed == int((a != b).sum()) == 1


def test_bool_tensors_count_changes_without_figures():
    a = torch.rand(3000) > 0.5
    b = a.clone()
    b[:100] = ~b[:100]
    result = compare_tensors(a, b)
    assert result.values.changed == int((a != b).sum()) == 100
    assert result.values.max_abs is None and result.values.cosine is None


def test_complex_values():
    a = torch.randn(1500, dtype=torch.complex64)
    b = a * (1 + 1e-3j)
    values = compare_tensors(a, b).values
    delta = (b.to(torch.complex128) - a.to(torch.complex128)).abs()
    assert values.max_abs == delta.max().item()
    expected = torch.linalg.vector_norm(delta) / torch.linalg.vector_norm(a.to(torch.complex128))
    assert values.relative == pytest.approx(expected.item(), rel=1e-12)
    assert values.cosine is None


def test_tolerance_counts_what_torch_isclose_rejects():
    torch.manual_seed(1)
    a = torch.randn(5000, dtype=torch.float64)
    b = a + torch.randn(5000, dtype=torch.float64) * 1e-4
    for atol, rtol in ((1e-4, 0.0), (0.0, 1e-4), (5e-5, 5e-5)):
        values = compare_tensors(a, b, atol=atol, rtol=rtol).values
        close = torch.isclose(b, a, rtol=rtol, atol=atol)
        assert values.outside_tolerance == int((~close).sum()) > 0
    assert compare_tensors(a, b, atol=1.0).values.outside_tolerance == 0
    assert torch.allclose(b, a, atol=1.0)


def test_reshaped_values_are_compared_in_row_major_order():
    a = torch.arange(12.0)
    result = compare_tensors(a, a.reshape(3, 4))
    assert result.bitwise_equal is True and result.values.changed == 0
    assert "shape [12] → [3, 4]" in result.notes[0]
    result = compare_tensors(a, torch.arange(16.0).reshape(4, 4))
    assert result.values is None and "12 vs 16 elements" in result.notes[0]


def test_a_transposed_view_is_compared_by_its_values():
    a = torch.randn(40, 30)
    b = a.t().contiguous().t()  # same values, other strides
    result = compare_tensors(a, b)
    assert result.bitwise_equal is True and result.values.changed == 0


def test_signed_zeros_differ_in_bytes_not_in_value():
    result = compare_tensors(torch.zeros(3), -torch.zeros(3))
    assert result.bitwise_equal is False and result.values.changed == 0
    assert "bytes differ" in result.notes[0]


def test_cancel_between_chunks():
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(ComparisonCancelledError):
        compare_tensors(torch.zeros(10_000), torch.ones(10_000), should_stop=stop)
    assert len(calls) == 3  # two chunks done, the third never started
