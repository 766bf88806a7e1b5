"""The gather/scatter picture in the Workbench: shown for the result it explains, following the
element pointed at, and only int64 tensors offered as the index."""

import pytest
import torch
from PySide6.QtCore import QPointF, Qt
from test_workbench_panel import apply

from tensorviz.core.tensors.workspace import Provenance, Workspace
from tensorviz.ui.workbench.action_forms import select_data

SCORES = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6], [0.9, 0.05, 0.05]])
LABELS = torch.tensor([[1], [0], [2], [0]])


@pytest.fixture
def panel(open_panel):
    workspace = Workspace()
    workspace.add_tensor("scores", SCORES.clone(), Provenance("tensor", ""))
    workspace.add_tensor("labels", LABELS.clone(), Provenance("tensor", ""))
    workspace.add_tensor("weights", torch.ones(4, 1), Provenance("ones", ""))
    return open_panel(workspace)


def test_the_index_input_offers_only_int64_tensors(panel):
    select_data(panel.operate_form.kind, "gather")
    combo = panel.operate_form.params.editors["index"]
    assert [combo.itemText(i) for i in range(combo.count())] == ["labels"]
    select_data(panel.operate_form.kind, "matmul")  # any tensor where any tensor will do
    other = panel.operate_form.params.editors["other"]
    assert other.count() == 3


def test_gather_shows_which_element_each_index_picks(panel, qtbot):
    apply(panel, "gather", "scores", dim="1", index="labels")
    view = panel.index_picture
    qtbot.waitUntil(view.isVisible)
    grids = view.grids
    result = panel.workspace.tensor("scores_gather")
    assert torch.equal(result, SCORES.gather(1, LABELS))
    for row in range(4):
        grids.select("index", row, 0)
        (link,) = grids.active_links()
        assert link.source_cell == (row, int(LABELS[row, 0]))  # the element torch picked
        assert SCORES[link.source_cell] == result[row, 0]
        assert view.link.text().startswith(f"index[{row}][0] = {int(LABELS[row, 0])}")
    centre = grids.cell_rect("x", (2, 2)).center()
    qtbot.mouseClick(grids, Qt.MouseButton.LeftButton, pos=centre.toPoint())
    assert grids.selected == ("x", (2, 2))
    assert [link.index_cell for link in grids.active_links()] == [(2, 0)]  # who reads x[2][2]
    grids.setFocus()
    qtbot.keyClick(grids, Qt.Key.Key_Down)
    assert grids.selected == ("index", (1, 0))


def test_scatter_shows_where_each_index_writes(panel, qtbot):
    apply(panel, "scatter", "scores", dim="1", index="labels", value="-1")
    grids = panel.index_picture.grids
    qtbot.waitUntil(panel.index_picture.isVisible)
    out = panel.workspace.tensor("scores_scatter")
    for row in range(4):
        grids.select("index", row, 0)
        (link,) = grids.active_links()
        assert out[link.result_cell] == -1 and link.result_cell == (row, int(LABELS[row, 0]))


def test_the_picture_goes_with_the_tensor_it_explains(panel, qtbot):
    apply(panel, "gather", "scores", dim="1", index="labels")
    qtbot.waitUntil(panel.index_picture.isVisible)
    panel.select("scores")
    assert not panel.index_picture.isVisible()
    panel.select("scores_gather")
    assert panel.index_picture.isVisible()
    panel.workspace.delete("labels")
    panel.select("scores_gather")
    assert "no longer in the workspace" in panel.index_picture.caption.text()
    assert not panel.index_picture.grids.isVisible()


def test_clicking_a_cell_that_is_no_cell_changes_nothing(panel, qtbot):
    apply(panel, "gather", "scores", dim="1", index="labels")
    grids = panel.index_picture.grids
    qtbot.waitUntil(panel.index_picture.isVisible)
    before = grids.selected
    assert grids.cell_at(QPointF(1, 1)) is None
    qtbot.mouseClick(grids, Qt.MouseButton.LeftButton, pos=QPointF(1, 1).toPoint())
    assert grids.selected == before
