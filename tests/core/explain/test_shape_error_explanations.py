"""Explained shape errors (view, matmul, broadcasting, dims, indices, cat), each triggered in
real torch. Assertions check against the tensors and torch itself, and that every fix really runs.
"""

import re

import pytest
import torch
from error_triggers import explain, shape_text
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.nn import functional

# --- view / reshape -------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(-1,), (6, 4)])
def test_view_on_transposed_tensor_names_the_breaking_strides(shape):
    x = torch.arange(24).reshape(2, 3, 4).transpose(0, 1)
    explained, _ = explain(lambda: x.view(*shape), "view", [x], {"shape": shape})
    assert explained.kind == "view_non_contiguous"
    breaking = [i for i in range(x.dim() - 1) if x.stride(i) != x.stride(i + 1) * x.shape[i + 1]]
    assert breaking  # the premise: transpose really broke contiguity
    for i in breaking:
        assert f"stride[{i}] = {x.stride(i)}" in explained.explanation
    assert str(x.numel() * x.element_size()) in explained.explanation
    wanted = ", ".join(map(str, shape))
    assert f"reshape({wanted})" in explained.fix and "contiguous()" in explained.fix
    assert x.reshape(*shape).shape == x.contiguous().view(*shape).shape  # the fix runs


def test_view_on_expanded_tensor_points_at_the_zero_stride():
    x = torch.zeros(1, 3).expand(4, 3)
    explained, _ = explain(lambda: x.view(12), "view", [x], {"shape": (12,)})
    assert explained.kind == "view_non_contiguous"
    assert f"stride[0] = {x.stride(0)}" in explained.explanation


def test_view_with_wrong_element_count_lists_shapes_that_fit():
    x = torch.arange(24)
    explained, _ = explain(lambda: x.view(5, 5), "view", [x], {"shape": (5, 5)})
    assert explained.kind == "view_shape_invalid"
    assert str(x.numel()) in explained.explanation and str(5 * 5) in explained.explanation
    suggestions = re.findall(r"(\d+)×(\d+)", explained.fix)
    assert suggestions
    for rows, cols in suggestions:  # every suggested arrangement really works in torch
        assert x.view(int(rows), int(cols)).numel() == x.numel()


def test_view_with_inferred_size_that_does_not_divide():
    x = torch.arange(24)
    explained, _ = explain(lambda: x.view(5, -1), "view", [x], {"shape": (5, -1)})
    assert explained.kind == "view_shape_invalid"
    assert "24" in explained.explanation and "-1" in explained.explanation


def test_two_inferred_sizes():
    x = torch.arange(24)
    explained, _ = explain(lambda: x.view(-1, -1), "view", [x])
    assert explained.kind == "view_shape_invalid" and "-1" in explained.fix


# --- matrix products ------------------------------------------------------------------------


def test_matmul_mismatch_names_both_k_and_a_transpose_that_fits():
    a, b = torch.randn(2, 3), torch.randn(2, 5)
    explained, _ = explain(lambda: a @ b, "matmul", [a, b])
    assert explained.kind == "matmul_shape"
    assert "(..., M, K) @ (..., K, N)" in explained.explanation
    assert shape_text(a.shape) in explained.explanation
    assert shape_text(b.shape) in explained.explanation
    assert f"K is {a.shape[-1]}" in explained.explanation
    assert f"K is {b.shape[-2]}" in explained.explanation
    assert "a.T @ b" in explained.fix
    assert shape_text((a.T @ b).shape) in explained.fix


def test_matmul_suggests_transposing_b_when_that_is_what_fits():
    a, b = torch.randn(3, 4), torch.randn(5, 4)
    explained, _ = explain(lambda: torch.mm(a, b), "mm", [a, b])
    assert explained.kind == "matmul_shape"
    assert "a @ b.T" in explained.fix and "a.T @ b" not in explained.fix
    assert shape_text((a @ b.T).shape) in explained.fix


def test_matmul_explained_from_the_message_alone():
    a, b = torch.randn(2, 3), torch.randn(2, 5)
    explained, _ = explain(lambda: a @ b)
    assert explained.kind == "matmul_shape"
    assert "3" in explained.explanation and "2" in explained.explanation
    assert "a.T @ b" in explained.fix


def test_batched_matmul_with_incompatible_batch_dims():
    a, b = torch.randn(2, 3, 4), torch.randn(3, 4, 6)
    explained, _ = explain(lambda: a @ b, "matmul", [a, b])
    assert explained.kind == "matmul_shape"
    assert shape_text(a.shape[:-2]) in explained.explanation
    assert shape_text(b.shape[:-2]) in explained.explanation


def test_mm_rejects_a_vector():
    v, m = torch.randn(3), torch.randn(3, 5)
    explained, _ = explain(lambda: torch.mm(v, m), "mm", [v, m])
    assert explained.kind == "matmul_shape"
    assert "2-D" in explained.title and "1-D" in explained.explanation
    assert "@" in explained.fix
    assert (v @ m).shape == (5,)  # the suggested operator really takes a vector


@pytest.mark.parametrize(
    "a_shape, b_shape", [((2, 3), (3, 4)), ((2, 2, 3), (2, 4, 5)), ((2, 2, 3), (3, 3, 5))]
)
def test_bmm_needs_matching_3d_batches(a_shape, b_shape):
    a, b = torch.randn(a_shape), torch.randn(b_shape)
    explained, _ = explain(lambda: torch.bmm(a, b), "bmm", [a, b])
    assert explained.kind == "matmul_shape" and "3-D" in explained.title
    explained_from_message, _ = explain(lambda: torch.bmm(a, b), "bmm")
    assert explained_from_message.kind == "matmul_shape"


def test_matrix_vector_length_mismatch():
    m, v = torch.randn(2, 3), torch.randn(4)
    explained, _ = explain(lambda: m.mv(v), "mv")
    assert explained.kind == "matmul_shape"
    assert f"K is {m.shape[1]}" in explained.explanation and f"K is {v.shape[0]}" in (
        explained.explanation
    )


# --- writes into expanded memory, broadcasting ----------------------------------------------


@pytest.mark.parametrize("write", [lambda e: e.add_(1), lambda e: e.copy_(torch.ones(4, 3))])
def test_write_into_expanded_tensor_names_the_zero_stride_dims(write):
    e = torch.zeros(1, 3).expand(4, 3)
    explained, _ = explain(lambda: write(e), "add_", [e])
    assert explained.kind == "expanded_write"
    for d in (d for d in range(e.dim()) if e.stride(d) == 0):
        assert f"dim {d}" in explained.explanation
    distinct = e.untyped_storage().nbytes() // e.element_size()
    assert f"{distinct} memory locations" in explained.explanation
    assert "clone()" in explained.fix and "contiguous()" in explained.fix
    write(e.clone())  # the fix runs


def test_incompatible_broadcast_right_aligns_and_names_the_dim():
    a, b = torch.randn(2, 3), torch.randn(4, 1, 4)
    explained, error = explain(lambda: a * b, "mul", [a, b])
    assert explained.kind == "broadcast"
    dim = int(re.search(r"dimension (\d+)", str(error))[1])
    assert f"dim {dim}" in explained.explanation
    assert "3" in explained.explanation and "4" in explained.explanation
    padded = [1] * (b.dim() - a.dim()) + list(a.shape)
    assert shape_text(padded) in explained.explanation


def test_expand_of_a_non_singleton_dim():
    x = torch.randn(2, 3)
    explained, _ = explain(lambda: x.expand(2, 5), "expand", [x], {"size": (2, 5)})
    assert explained.kind == "broadcast"
    assert "size 3" in explained.explanation and "5" in explained.explanation


def test_expand_suggests_a_repeat_that_really_tiles():
    x = torch.randn(2, 3)
    explained, _ = explain(lambda: x.expand(4, 6), "expand", [x])
    factors = [int(f) for f in re.search(r"repeat\(([\d, ]+)\)", explained.fix)[1].split(",")]
    assert x.repeat(*factors).shape == (4, 6)


shapes = st.lists(st.sampled_from([0, 1, 1, 2, 3]), max_size=4).map(tuple)


@settings(max_examples=150, deadline=None)
@given(shapes, shapes)
def test_broadcast_explanations_agree_with_torch(a_shape, b_shape):
    a, b = torch.zeros(a_shape), torch.zeros(b_shape)
    try:
        result = torch.broadcast_shapes(a_shape, b_shape)
    except RuntimeError:
        explained, error = explain(lambda: a + b, "add", [a, b])
        assert explained.kind == "broadcast"
        dim = re.search(r"dimension (\d+)", str(error))[1]
        assert f"dim {dim}" in explained.explanation
        return
    if tuple(result) != a_shape:  # in-place cannot grow a: torch refuses, we name the result
        explained, _ = explain(lambda: a.add_(b), "add_", [a, b])
        assert explained.kind == "broadcast"
        assert shape_text(result) in explained.explanation


# --- dims, indices, cat ---------------------------------------------------------------------


def test_dimension_out_of_range_gives_the_valid_dims():
    x = torch.randn(2, 3, 4)
    explained, _ = explain(lambda: x.sum(3), "sum", [x], {"dim": 3})
    assert explained.kind == "dim_out_of_range"
    assert f"0..{x.dim() - 1}" in explained.explanation
    assert f"{-x.dim()}..-1" in explained.explanation
    assert shape_text(x.shape) in explained.explanation


def test_index_out_of_bounds_gives_the_valid_indices():
    x = torch.randn(3)
    explained, _ = explain(lambda: x[5], "index", [x])
    assert explained.kind == "index_out_of_bounds"
    assert f"0..{x.shape[0] - 1}" in explained.explanation and "5" in explained.explanation


def test_embedding_index_beyond_the_table():
    indices, table = torch.tensor([5, 1]), torch.randn(3, 4)
    explained, _ = explain(
        lambda: functional.embedding(indices, table), "embedding", [indices, table]
    )
    assert explained.kind == "index_out_of_bounds"
    assert str(int(indices.max())) in explained.explanation
    assert f"{table.shape[0]} rows" in explained.explanation


def test_cat_with_different_sizes_in_another_dim():
    a, b = torch.zeros(2, 3), torch.zeros(2, 4)
    explained, _ = explain(lambda: torch.cat([a, b]), "cat", [a, b])
    assert explained.kind == "cat_shape"
    assert "dim 0" in explained.explanation
    assert shape_text(a.shape) in explained.explanation
    assert shape_text(b.shape) in explained.explanation
    assert torch.cat([a, b], dim=1).shape == (2, 7)  # "join along the dim where sizes differ"


def test_a_matrix_times_a_batch_is_explained_as_matmul_not_bmm():
    w, x = torch.randn(3, 4), torch.randn(2, 3, 4)  # torch runs this @ as a bmm and says so
    explained, _ = explain(lambda: w @ x, None, [w, x])
    assert explained.kind == "matmul_shape" and "bmm()" not in explained.title
    assert f"a's K is {w.shape[-1]} but b's K is {x.shape[-2]}" in explained.explanation
    assert (w.T @ x).shape == (2, 4, 4)  # the fix it offers runs
