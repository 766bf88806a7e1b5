"""The Memory layout area on tensors far bigger than the screen: nothing may be computed per
element (no index array, no full read count on the GUI thread, no loop over every column),
and every answer still matches torch's own data pointers."""

import numpy as np
import pytest
import torch

from tensorviz.core.memory import strides
from tensorviz.core.tensors.workspace import Provenance, Workspace
from tensorviz.ui.memory import axis_labels, read_count_worker
from tensorviz.ui.memory.layout_panel import LayoutPanel

HUGE = 50_000_000


def cell_of(tensor, index) -> int:
    base = tensor.untyped_storage().data_ptr()
    return (tensor[index].data_ptr() - base) // tensor.element_size()


@pytest.fixture
def no_per_element_work(monkeypatch):
    """Fail on any whole-tensor index array or full read count computed on the GUI thread."""
    original = strides.storage_indices

    def guarded(layout):
        assert layout.numel <= 1_000_000, f"an index array of {layout.numel:,} elements"
        return original(layout)

    def refused(layout, cells):
        raise AssertionError(f"a full read count of {cells:,} cells on the GUI thread")

    monkeypatch.setattr(strides, "storage_indices", guarded)
    monkeypatch.setattr(read_count_worker, "cached_read_counts", refused)


@pytest.fixture
def panel(qtbot):
    workspace = Workspace()
    widget = LayoutPanel(workspace)
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.shutdown()


def add(panel, name, tensor):
    panel.workspace.add_tensor(name, tensor, Provenance("test", name))


def test_a_50m_expanded_view_draws_hovers_and_selects_from_strides(panel, no_per_element_work):
    base = torch.arange(4.0)
    huge = base.expand(HUGE // 4, 4)  # 50M logical elements, 4 storage cells
    add(panel, "base", base)
    add(panel, "huge", huge)
    panel.show_tensor("huge")
    assert panel.grid.indices.shape == (HUGE // 4, 4)
    assert not panel.grab().isNull()
    panel.hover_element((9_999_999, 3))
    assert panel.strips.lit == [cell_of(huge, (9_999_999, 3))]
    panel.select_cell(2)
    assert panel.readers_total == HUGE // 4
    assert panel.selected_readers()[:3] == [(0, 2), (1, 2), (2, 2)]
    assert all(cell_of(huge, index) == 2 for index in panel.selected_readers()[:50])
    assert "read by <b>12,500,000</b> elements" in panel.details.cell.text()
    assert not panel.grab().isNull()


def test_a_50m_strided_slice_reads_the_cells_torch_reads(panel, no_per_element_work):
    cells = 3 * HUGE + 3
    sliced = torch.empty(0).set_(torch.UntypedStorage(cells * 4), 5, (HUGE,), (3,))
    add(panel, "wide", sliced)
    add(panel, "flat", torch.zeros(1).expand(3 * HUGE))  # another storage, 150M elements
    panel.show_tensor("wide")
    assert panel.grid.indices[0, HUGE - 1] == cell_of(sliced, (HUGE - 1,))
    reads = panel.strips.rows[0].reads["wide"]
    read = [cell_of(sliced, (i,)) for i in (0, 1, HUGE // 2, HUGE - 1)]
    unread = [0, read[0] + 1, read[1] - 1, read[3] - 1, cells - 1 if read[3] < cells - 1 else 0]
    assert reads.counts_at(np.array(read)).tolist() == [1, 1, 1, 1]
    assert reads.counts_at(np.array(unread)).tolist() == [0] * len(unread)
    assert reads.any_read(np.array([0, read[0] + 1, read[1]]), read[1] + 1).tolist() == [
        True,
        False,
        True,
    ]
    assert not panel.grab().isNull()


def test_axis_labels_are_as_many_as_drawn_not_as_columns():
    every = axis_labels.label_step(HUGE / 1200 * 60)
    labels = axis_labels.labelled(range(0, HUGE), every)
    assert len(labels) < 100 and labels[0] == 0 and all(c % every == 0 for c in labels)
    assert axis_labels.labelled(range(7, 31), 5) == range(10, 31, 5)
    assert [axis_labels.compact(i) for i in (7, 2500, 12_000_000)] == ["7", "2.5k", "12M"]


def test_overlapping_windows_are_counted_off_the_gui_thread(panel, qtbot):
    panel.read_counter.in_place_up_to = 10  # anything bigger goes to the worker
    base = torch.arange(100.0)
    windows = base.unfold(0, 5, 1)  # cells read up to 5 times
    add(panel, "base", base)
    add(panel, "windows", windows)
    panel.show_tensor("windows")
    reads = panel.strips.rows[0].reads["windows"]
    qtbot.waitUntil(lambda: reads.known, timeout=10_000)
    expected = torch.bincount(windows.reshape(-1).long(), minlength=100).numpy()
    assert np.array_equal(reads.counts_at(np.arange(100)), expected)
    assert not panel.grab().isNull()


def test_counts_for_a_picture_already_left_are_dropped(panel, qtbot):
    panel.read_counter.in_place_up_to = 10
    base = torch.arange(100.0)
    add(panel, "base", base)
    add(panel, "windows", base.unfold(0, 5, 1))
    panel.show_tensor("windows")
    stale = panel._generation
    panel.show_tensor("base")  # a new picture: its own reads, a new generation
    reads = panel.strips.rows[0].reads["windows"]
    panel._on_counts_computed(stale, "windows", np.full(100, 7))
    assert reads.counts is None or not (reads.counts == 7).all()
    panel.read_counter.stop()


def test_a_selected_stride_zero_cell_outlines_only_what_is_visible(panel, qtbot):
    add(panel, "row", torch.zeros(1).expand(HUGE))
    panel.show_tensor("row")
    panel.select_cell(0)
    grid = panel.grid
    assert panel.readers_total == HUGE and len(grid.readers) == len(panel.selected_readers())
    outlines = grid._outlines(grid._readers)
    assert 0 < len(outlines) <= grid.width()  # one per pixel position, not one per reader
    band = grid.cell_rect(0, HUGE // 2)
    assert band.height() >= 32  # a readable band, not a hairline of square cells
    qtbot.mouseMove(grid, band.center().toPoint())
    qtbot.waitUntil(lambda: panel.hovered_index is not None)
    assert abs(panel.hovered_index[0] - HUGE // 2) < HUGE // 50
    assert panel.strips.lit == [0]
