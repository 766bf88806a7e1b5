"""Stride geometry against torch itself: random shapes, strides (0 included), offsets, views."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from strided_views import sliced_views, strided_tensors, torch_storage_indices

from tensorviz.core.memory.strides import (
    Layout,
    check_view,
    contiguity,
    elements_reading,
    formula,
    read_counts,
    slice_storage_indices,
    storage_index_of,
    storage_indices,
    stride_zero_dims,
    walk_order,
    walk_step,
)


@settings(max_examples=200, deadline=None)
@given(strided_tensors())
def test_storage_indices_match_as_strided(pair):
    base, view = pair
    ours = storage_indices(Layout.of(view))
    assert ours.shape == tuple(view.shape)
    assert np.array_equal(ours, torch_storage_indices(view))


@settings(max_examples=200, deadline=None)
@given(sliced_views())
def test_storage_indices_match_sliced_views_and_data_ptr(pair):
    base, view = pair
    layout = Layout.of(view)
    ours = storage_indices(layout)
    assert np.array_equal(ours, torch_storage_indices(view))
    first = tuple(0 for _ in view.shape)
    by_pointer = (view[first].data_ptr() - base.data_ptr()) // base.element_size()
    assert storage_index_of(layout, first) == by_pointer
    assert np.array_equal(walk_order(layout), torch_storage_indices(view).reshape(-1))


@settings(max_examples=150, deadline=None)
@given(strided_tensors())
def test_contiguity_agrees_with_torch(pair):
    _, view = pair
    report = contiguity(Layout.of(view))
    assert report.is_contiguous == view.is_contiguous()
    if not report.is_contiguous:
        assert report.copy_bytes == view.numel() * view.element_size()
        assert report.contiguous_strides == view.contiguous().stride()


@settings(max_examples=150, deadline=None)
@given(sliced_views(), st.data())
def test_check_view_agrees_with_torch(pair, data):
    _, view = pair
    numel = view.numel()
    divisors = [d for d in range(1, numel + 1) if numel % d == 0]
    first = data.draw(st.sampled_from(divisors))
    for new_shape in [(numel,), (first, numel // first), (1, numel, 1)]:
        check = check_view(Layout.of(view), new_shape)
        try:
            expected = view.view(new_shape).stride()
        except RuntimeError:
            assert check.strides is None and "refused" in check.text()
        else:
            assert check.strides == expected


def test_transpose_refuses_flat_view_and_names_the_merge():
    x_t = torch.arange(24.0).reshape(2, 3, 4).transpose(0, 1)
    check = check_view(Layout.of(x_t), (24,))
    assert check.strides is None and check.copy_bytes == 96
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        x_t.view(24)
    report = contiguity(Layout.of(x_t))
    assert [b.dim for b in report.breaks] == [0, 1] and "96 bytes" in report.text()


def test_selected_storage_cell_is_read_by_every_stride_zero_element():
    x = torch.arange(3.0)
    expanded = x.expand(4, 3)
    layout = Layout.of(expanded)
    readers = elements_reading(layout, 1)
    assert [tuple(r) for r in readers] == [(i, 1) for i in range(4)]
    assert all(expanded[tuple(r)].data_ptr() == x[1].data_ptr() for r in readers)
    assert stride_zero_dims(layout) == [0]
    assert stride_zero_dims(Layout.of(x.repeat(4, 1))) == []


def test_formula_with_numbers():
    x = torch.arange(24.0).reshape(2, 3, 4)[:, 1:, ::2]
    layout = Layout.of(x)
    symbolic, numeric = formula(layout, (1, 1, 1))
    assert symbolic == "offset + i·s0 + j·s1 + k·s2 = index"
    index = storage_index_of(layout, (1, 1, 1))
    assert numeric == f"4 + 1·12 + 1·4 + 1·2 = {index}"
    assert index == (x[1, 1, 1].data_ptr() - x.untyped_storage().data_ptr()) // 4


def test_slice_of_n_d_tensor_matches_torch_indexing():
    x = torch.arange(60.0).reshape(3, 4, 5).permute(2, 0, 1)
    ours = slice_storage_indices(Layout.of(x), (2, None, None))
    assert np.array_equal(ours, x[2].contiguous().numpy().astype(np.int64))
    one_d = slice_storage_indices(Layout.of(torch.arange(5.0)), (None,))
    assert one_d.shape == (1, 5)


def test_a_million_elements_map_fast_enough_to_be_vectorised():
    x = torch.zeros(1000, 1000).t()
    indices = storage_indices(Layout.of(x))
    assert indices.shape == (1000, 1000) and indices[3, 7] == 7 * 1000 + 3


def test_read_counts_and_walk_steps_follow_torch():
    x = torch.arange(12.0).reshape(3, 4)
    expanded = x[:, :1].expand(3, 5)
    counts = read_counts(Layout.of(expanded), 12)
    assert counts.tolist() == [5, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0]
    x_t = x.t()
    layout = Layout.of(x_t)
    flat = x_t.contiguous().view(-1)
    for position in range(x_t.numel()):
        step = walk_step(layout, position)
        assert step.storage_index == int(flat[position])
        if position:
            assert step.jump == int(flat[position]) - int(flat[position - 1])
    assert walk_step(layout, 1).jump == 4 and walk_step(layout, 3).jump == -7


@settings(max_examples=200, deadline=None)
@given(strided_tensors())
def test_read_counts_equal_torchs_own_count_of_readers(pair):
    base, view = pair
    cells = base.numel()
    expected = torch.bincount(view.contiguous().reshape(-1).long(), minlength=cells)[:cells]
    assert np.array_equal(read_counts(Layout.of(view), cells), expected.numpy())


@settings(max_examples=100, deadline=None)
@given(sliced_views())
def test_read_counts_of_user_made_views(pair):
    base, view = pair
    cells = base.numel()
    expected = torch.bincount(view.contiguous().reshape(-1).long(), minlength=cells)[:cells]
    assert np.array_equal(read_counts(Layout.of(view), cells), expected.numpy())
