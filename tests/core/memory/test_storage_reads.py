"""Answers from the strides alone (slice map, readers, read counts, read bins) against torch's
own count of which storage element every logical element reads."""

import numpy as np
import torch
from hypothesis import given, settings
from strided_views import sliced_views, strided_tensors

from tensorviz.core.memory.storage_reads import (
    NOWHERE,
    StorageReads,
    never_overlaps,
    next_read,
    readers_of,
    storage_slice,
)
from tensorviz.core.memory.strides import Layout


def torch_reads(base, view):
    """torch's answer: the storage element each logical element reads (base holds its index)."""
    return view.contiguous().reshape(-1).long()


def torch_counts(base, view):
    return torch.bincount(torch_reads(base, view), minlength=base.numel()).numpy()


def check_reads(base, view):
    layout, cells = Layout.of(view), base.numel()
    expected = torch_counts(base, view)
    reads = StorageReads(layout, cells)
    if not reads.known:
        assert not never_overlaps(layout)
        return
    assert np.array_equal(reads.counts_at(np.arange(cells)), expected)
    starts = np.unique(np.random.default_rng(cells).integers(0, cells, size=4))
    bins = reads.any_read(starts, cells)
    ends = list(starts[1:]) + [cells]
    assert bins.tolist() == [bool(expected[a:b].any()) for a, b in zip(starts, ends, strict=True)]
    read = np.flatnonzero(expected)
    for start in range(cells + 2):
        later = read[read >= start]
        want = int(later[0]) if len(later) else NOWHERE
        assert next_read(layout, np.array([start]))[0] == want


@settings(max_examples=300, deadline=None)
@given(strided_tensors(spare_storage=True))
def test_read_counts_and_bins_match_torch_for_any_strides(pair):
    check_reads(*pair)


@settings(max_examples=200, deadline=None)
@given(sliced_views())
def test_read_counts_and_bins_match_torch_for_user_views(pair):
    base, view = pair
    assert StorageReads(Layout.of(view), base.numel()).known  # never needs a full pass
    check_reads(base, view)


@settings(max_examples=300, deadline=None)
@given(strided_tensors(spare_storage=True))
def test_readers_of_every_cell_match_torch(pair):
    base, view = pair
    reads = torch_reads(base, view).reshape(view.shape) if view.dim() else torch_reads(base, view)
    for cell in range(base.numel() + 1):
        found, total = readers_of(Layout.of(view), cell)
        expected = np.argwhere((reads == cell).reshape(view.shape).numpy())
        assert total == len(expected)
        assert found.tolist() == expected.tolist()


def test_readers_of_a_huge_expand_are_listed_up_to_a_limit_and_counted_exactly():
    view = torch.zeros(4).expand(50_000_000, 4)  # no materialised index array could be this fast
    found, total = readers_of(Layout.of(view), 2, limit=5)
    assert total == 50_000_000
    assert found.tolist() == [[i, 2] for i in range(5)]
    assert all(view[tuple(r)].data_ptr() == view[0, 2].data_ptr() for r in found.tolist())


def test_overlapping_windows_need_materialised_counts():
    base = torch.arange(10.0)
    windows = base.unfold(0, 3, 1)  # shape (8, 3), strides (1, 1): cells read up to 3 times
    reads = StorageReads(Layout.of(windows), 10)
    assert not reads.known and reads.counts_at(np.arange(10)) is None
    reads.counts = torch_counts(base, windows)
    assert reads.counts_at(np.array([0, 1, 5, 9])).tolist() == [1, 2, 3, 1]
    found, total = readers_of(Layout.of(windows), 5)
    assert total == 3 and found.tolist() == [[3, 2], [4, 1], [5, 0]]


def test_storage_slice_matches_torch_and_stays_small():
    x = torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)[1:]
    for fixed, index in (((1, None, None), (1,)), ((None, 1, None), (slice(None), 1))):
        piece = storage_slice(Layout.of(x), fixed)
        expected = x[index].long()
        assert piece.shape == tuple(expected.shape)
        assert piece.tolist() == expected.tolist()
        assert piece.T.tolist() == expected.t().tolist()
        assert piece[1, 2] == int(expected[1, 2])
    huge = storage_slice(Layout((50_000_000,), (3,), 7, 4), (None,))
    assert huge.shape == (1, 50_000_000) and huge[0, 49_999_999] == 7 + 3 * 49_999_999
    assert huge.block(np.array([0]), np.array([0, 10])).tolist() == [[7, 37]]
