"""The Memory layout area as a user drives it, checked against torch's own data pointers."""

import numpy as np
import pytest
import torch
from PySide6.QtCore import QPoint, QPointF, Qt

from tensorviz.core.tensors.workbench_actions import apply_operation, populate_default_workspace
from tensorviz.core.tensors.workspace import Provenance, Workspace
from tensorviz.ui.memory.layout_panel import LayoutPanel


@pytest.fixture
def workspace():
    workspace = Workspace()
    populate_default_workspace(
        workspace
    )  # x = arange(24).reshape(2, 3, 4), x_t = x.transpose(0, 1)
    apply_operation(workspace, "index", "x", {"index": "..., :1"}, name="x_col")
    apply_operation(workspace, "expand", "x_col", {"shape": "2, 3, 4"}, name="x_e")
    apply_operation(workspace, "clone", "x", {}, name="x_copy")
    return workspace


@pytest.fixture
def panel(qtbot, workspace):
    widget = LayoutPanel(workspace)
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.shutdown()


def cell_of(tensor, index) -> int:
    """torch's answer: which storage element `tensor[index]` reads, from data pointers."""
    base = tensor.untyped_storage().data_ptr()
    return (tensor[index].data_ptr() - base) // tensor.element_size()


def centre(grid, row, col) -> QPoint:
    return grid.cell_rect(row, col).center().toPoint()


def test_opens_on_the_newest_tensor_and_lists_the_workspace(panel, workspace):
    names = [panel.picker.itemData(i) for i in range(panel.picker.count())]
    assert names == workspace.names()
    assert panel.name == "x_copy"
    panel.show_tensor("x_t")
    assert panel.name == "x_t" and panel.picker.currentData() == "x_t"


def test_hovering_an_element_lights_its_storage_cell_and_shows_the_formula(panel, qtbot):
    panel.show_tensor("x_t")
    tensor = panel.workspace.tensor("x_t")
    panel.slice_controls.spin_boxes[0].setValue(2)
    qtbot.mouseMove(panel.grid, centre(panel.grid, 1, 3))
    qtbot.waitUntil(lambda: panel.hovered_index == (2, 1, 3))
    expected = cell_of(tensor, (2, 1, 3))
    assert panel.strips.lit == [expected]
    assert panel.grid.hovered == (1, 3)
    assert f"0 + 2·4 + 1·12 + 3·1 = {expected}" in panel.details.formula.text()


def test_grid_reads_the_cells_torch_reads_for_every_slice(panel):
    panel.show_tensor("x_t")
    tensor = panel.workspace.tensor("x_t")
    for i in range(tensor.shape[0]):
        panel.slice_controls.spin_boxes[0].setValue(i)
        for j in range(tensor.shape[1]):
            for k in range(tensor.shape[2]):
                assert panel.grid.indices[j, k] == cell_of(tensor, (i, j, k))
                assert panel.grid.values[j, k] == tensor[i, j, k]


def test_choosing_other_dims_for_rows_and_columns(panel):
    panel.show_tensor("x")
    tensor = panel.workspace.tensor("x")
    controls = panel.slice_controls
    controls.row_combo.setCurrentIndex(2)  # rows: dim 2, so columns must move off dim 2
    assert (controls.row_dim, controls.col_dim) == (2, 1)
    position = controls.fixed().index(0)
    assert position == 0
    for k in range(4):
        for j in range(3):
            assert panel.grid.indices[k, j] == cell_of(tensor, (0, j, k))


def test_clicking_a_storage_cell_lights_every_stride_zero_reader(panel, qtbot):
    panel.show_tensor("x_e")
    tensor = panel.workspace.tensor("x_e")
    strips = panel.strips
    cell = cell_of(tensor, (0, 2, 0))
    rows = strips.rows[0]
    x = strips.cell_x(rows.group.cells, cell) + strips._cell_width(rows.group.cells) / 2
    y = rows.cells_top + rows.cells_height / 2
    qtbot.mouseClick(strips, Qt.MouseButton.LeftButton, pos=QPointF(x, y).toPoint())
    assert panel.selected_cell == cell
    expected = [(0, 2, k) for k in range(4)]
    assert panel.selected_readers() == expected
    assert all(cell_of(tensor, index) == cell for index in expected)
    assert sorted(panel.grid.readers) == [(2, k) for k in range(4)]
    assert "read by <b>4</b> elements" in panel.details.cell.text()


def test_clicking_an_element_selects_the_cell_it_reads(panel, qtbot):
    panel.show_tensor("x_t")
    qtbot.mouseClick(panel.grid, Qt.MouseButton.LeftButton, pos=centre(panel.grid, 1, 2))
    assert panel.selected_cell == cell_of(panel.workspace.tensor("x_t"), (0, 1, 2))
    assert panel.strips.selected_cell == panel.selected_cell


def test_views_share_one_strip_and_the_copy_gets_its_own(panel):
    panel.show_tensor("x_t")
    groups = [row.group for row in panel.strips.rows]
    assert groups[0].names == ["x", "x_t", "x_col", "x_e"]
    assert [g.names for g in groups[1:]] == [["x_copy"]]
    ptrs = {n: panel.workspace.tensor(n).untyped_storage().data_ptr() for n in groups[0].names}
    assert len(set(ptrs.values())) == 1
    rows = panel.strips.rows[0]
    counts = rows.reads["x_e"].counts_at(np.arange(rows.group.cells))
    assert counts.sum() == 24 and (counts > 0).sum() == 6


def test_in_place_write_into_expanded_tensor_shows_torchs_error(panel, qtbot):
    panel.show_tensor("x_t")
    assert not panel.details.write_button.isEnabled()
    panel.show_tensor("x_e")
    before = panel.workspace.tensor("x").clone()
    qtbot.mouseClick(panel.details.write_button, Qt.MouseButton.LeftButton)
    error = panel.details.error_panel
    assert error.isVisible() and error.explained.kind == "expanded_write"
    with pytest.raises(RuntimeError) as raised:
        torch.arange(3.0).expand(2, 3).add_(1)
    assert error.explained.torch_message == str(raised.value)
    assert torch.equal(panel.workspace.tensor("x"), before)


def test_contiguity_is_explained(panel):
    panel.show_tensor("x_t")
    text = panel.details.layout_text.text()
    assert "Not contiguous" in text and "192 bytes" in text
    assert "x_t.view(24,) is refused" in text
    panel.show_tensor("x")
    assert "Contiguous" in panel.details.layout_text.text()


def test_walk_steps_through_storage_in_logical_order(panel, qtbot):
    panel.show_tensor("x_t")
    tensor = panel.workspace.tensor("x_t")
    walk = panel.details.walk
    expected = [
        cell_of(tensor, index) for index in [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3), (0, 1, 0)]
    ]
    for _ in range(5):
        walk.step()
    assert panel.walk_trail == expected
    assert "jumps <b>+9</b>" in panel.details.walk_text.text()  # 3 → 12
    walk.back()
    assert panel.walk_index == (0, 0, 3)
    walk.speed.setValue(20)
    walk.play_button.click()
    qtbot.waitUntil(lambda: walk.position >= 8, timeout=5000)
    walk.stop()
    assert panel.walk_index == tuple(
        int(i) for i in torch.unravel_index(torch.tensor(walk.position), tensor.shape)
    )
    assert panel.slice_controls.spin_boxes[0].value() == panel.walk_index[0]


def test_follows_the_workspace(panel, workspace):
    panel.show_tensor("x_t")
    workspace.rename("x_t", "xt")
    assert panel.name == "xt" and panel.picker.currentData() == "xt"
    workspace.add_tensor("y", torch.zeros(5), Provenance("zeros", "torch.zeros(5)"))
    assert panel.picker.findData("y") >= 0
    workspace.write_in_place("x", lambda: workspace.tensor("x").mul_(10), "x *= 10")
    assert panel.grid.values[1, 2] == workspace.tensor("xt")[0, 1, 2] == 140
    workspace.undo()
    assert panel.grid.values[1, 2] == 14
    workspace.delete("xt")
    assert panel.name in workspace.names() and panel.picker.findData("xt") == -1


def test_zero_and_one_dimensional_tensors(panel, workspace):
    workspace.add_tensor("s", torch.tensor(3.5), Provenance("tensor", "torch.tensor(3.5)"))
    panel.show_tensor("s")
    assert panel.grid.indices.shape == (1, 1)
    workspace.add_tensor("v", torch.arange(10)[::3], Provenance("index", "arange(10)[::3]"))
    panel.show_tensor("v")
    assert panel.grid.indices.tolist() == [[0, 3, 6, 9]]
    panel.hover_element((2,))
    assert panel.strips.lit == [6]


def test_export_writes_valid_png_and_svg(panel, tmp_path):
    from PySide6.QtGui import QImage
    from PySide6.QtSvg import QSvgRenderer

    panel.show_tensor("x_e")
    png, svg = tmp_path / "layout.png", tmp_path / "layout.svg"
    panel.export(str(png))
    panel.export(str(svg))
    image = QImage(str(png))
    assert not image.isNull() and image.height() >= panel.grid.height()
    assert QSvgRenderer(str(svg)).isValid()
    assert "<svg" in svg.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["layout.png", "layout.svg"]
    messages = []
    panel.status_message.connect(messages.append)
    assert panel.export(str(tmp_path / "layout.jpg")) is False  # said, never raised
    assert messages == ["Export as .png or .svg, not “.jpg”."]
    assert panel.export(str(tmp_path / "gone" / "layout.png")) is False  # no such folder
    assert messages[-1].startswith(f"Could not write {tmp_path / 'gone' / 'layout.png'}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["layout.png", "layout.svg"]


def test_a_million_elements_stay_drawable_and_hoverable(panel, workspace, qtbot):
    workspace.add_tensor("big", torch.zeros(1000, 1000).t(), Provenance("zeros", "zeros.t()"))
    panel.show_tensor("big")
    assert panel.grid.cell_size() < 1
    assert not panel.grab().isNull()
    qtbot.mouseMove(panel.grid, centre(panel.grid, 500, 300))
    qtbot.waitUntil(lambda: panel.hovered_index is not None)
    row, col = panel.hovered_index
    assert panel.strips.lit == [col * 1000 + row]


def test_deleting_the_hovered_tensor_forgets_the_hover(panel, workspace):
    panel.show_tensor("x_t")
    panel.hover_element((2, 1, 3))
    panel.select_cell(5)
    workspace.delete("x_t")
    workspace.delete("x_copy")
    assert panel.hovered_index is None and panel.name in workspace.names()
    for name in list(workspace.names()):
        workspace.delete(name)
    assert panel.name == "" and panel.selected_cell is None
    assert panel.grid.indices.size == 0 and not panel.grab().isNull()


def test_wheel_zooms_the_grid_and_drag_pans_it(panel, workspace, qtbot):
    from PySide6.QtCore import QPoint as Point
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    workspace.add_tensor("wide", torch.zeros(200, 300), Provenance("zeros", "zeros(200, 300)"))
    panel.show_tensor("wide")
    grid = panel.grid
    before = grid.cell_size()
    at = centre(grid, 100, 150)
    for _ in range(6):
        wheel = QWheelEvent(
            QPointF(at),
            QPointF(grid.mapToGlobal(at)),
            Point(0, 0),
            Point(0, 120),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(grid, wheel)
    assert grid.cell_size() > 3 * before and grid.window.is_zoomed
    assert grid.cell_at(QPointF(at)) in {(r, c) for r in range(98, 103) for c in range(148, 153)}
    x0 = grid.window.x0
    qtbot.mousePress(grid, Qt.MouseButton.LeftButton, pos=at)
    qtbot.mouseMove(grid, at + Point(-60, 0))
    qtbot.mouseRelease(grid, Qt.MouseButton.LeftButton, pos=at + Point(-60, 0))
    assert grid.window.x0 > x0 and panel.selected_cell is None  # a drag is not a click
    grid.mouseDoubleClickEvent(None)
    assert not grid.window.is_zoomed


def test_arrow_keys_walk_the_grid_and_enter_selects(panel, qtbot):
    panel.show_tensor("x_t")
    tensor = panel.workspace.tensor("x_t")
    grid = panel.grid
    qtbot.keyClick(grid, Qt.Key.Key_Right)
    assert panel.hovered_index == (0, 0, 0)
    qtbot.keyClick(grid, Qt.Key.Key_Right)
    qtbot.keyClick(grid, Qt.Key.Key_Down)
    assert panel.hovered_index == (0, 1, 1)
    assert panel.strips.lit == [cell_of(tensor, (0, 1, 1))]
    qtbot.keyClick(grid, Qt.Key.Key_Return)
    assert panel.selected_cell == cell_of(tensor, (0, 1, 1))


def test_a_hidden_panel_defers_its_work_until_shown(panel, workspace, qtbot):
    panel.hide()
    workspace.add_tensor("late", torch.arange(6.0).reshape(2, 3).t(), Provenance("t", "late"))
    assert panel.picker.findData("late") >= 0  # the picker follows at once
    assert all("late" not in row.group.names for row in panel.strips.rows)  # no drawing work
    panel.show()
    qtbot.waitExposed(panel)
    assert any("late" in row.group.names for row in panel.strips.rows)
    panel.hide()
    workspace.delete("late")
    panel.show_tensor("x_t")  # an explicit request catches up at once
    assert all("late" not in row.group.names for row in panel.strips.rows)


def test_a_meta_tensor_is_drawn_without_values(panel, workspace):
    """A meta tensor (the Workbench's device lesson, or a script's) has no values to read."""
    workspace.add_tensor("m", torch.ones(2, 3, 4, device="meta"), Provenance("ones", ""))
    panel.show_tensor("m")
    assert not panel.grab().isNull()  # painting reads no value (it used to raise)
