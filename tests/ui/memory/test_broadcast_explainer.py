"""The broadcasting explainer widget: examples, typed shapes, workspace shapes, torch's error."""

import pytest
import torch

from tensorviz.core.tensors.workspace import Provenance, Workspace
from tensorviz.ui.memory.broadcast_explainer import BroadcastExplainer


@pytest.fixture
def explainer(qtbot):
    workspace = Workspace()
    workspace.add_tensor("images", torch.zeros(8, 3, 4, 4), Provenance("zeros", "zeros"))
    workspace.add_tensor("scale", torch.ones(3, 1, 1), Provenance("ones", "ones"))
    widget = BroadcastExplainer(workspace)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.close_subscription()


def test_opens_on_the_classic_example(explainer):
    assert explainer.explanation.result == tuple(torch.broadcast_shapes((3, 1, 5), (2, 1)))
    assert "(3, 2, 5)" in explainer.result.text()


def test_silent_example_is_one_click_away(explainer, qtbot):
    explainer.example_buttons["silent: [3, 1] with [4]"].click()
    assert explainer.explanation.result == (3, 4)
    assert "silent" in explainer.result.text()


def test_typed_incompatible_shapes_show_torchs_error(explainer):
    explainer.shape_edits[0].setText("(2, 3)")
    explainer.shape_edits[1].setText("4, 1, 4")
    with pytest.raises(RuntimeError) as raised:
        torch.zeros(2, 3) + torch.zeros(4, 1, 4)
    assert explainer.explanation.failing.dim == 2
    assert explainer.explanation.torch_message == str(raised.value)
    assert "non-singleton dimension 2" in explainer.torch_says.text()  # verbatim, on its own
    assert explainer.torch_says.property("verbatim") and "raises" in explainer.check.text()
    assert explainer.torch_says.isVisible()
    explainer.shape_edits[0].setText("(4,)")  # now it broadcasts: no torch message, no gap
    assert not explainer.torch_says.isVisible() and "agrees" in explainer.check.text()


def test_shapes_from_workspace_tensors_and_a_third_shape(explainer):
    explainer.pickers[0].setCurrentIndex(explainer.pickers[0].findData("images"))
    explainer.pickers[0].activated.emit(explainer.pickers[0].currentIndex())
    explainer.pickers[1].setCurrentIndex(explainer.pickers[1].findData("scale"))
    explainer.pickers[1].activated.emit(explainer.pickers[1].currentIndex())
    assert explainer.shape_edits[0].text() == "(8, 3, 4, 4)"
    explainer.add_button.click()
    explainer.shape_edits[2].setText("(4,)")
    expected = torch.broadcast_shapes((8, 3, 4, 4), (3, 1, 1), (4,))
    assert explainer.explanation.result == tuple(expected)


def test_bad_text_is_explained_not_raised(explainer):
    explainer.shape_edits[0].setText("(a, 2)")
    assert explainer.explanation is None
    assert "is not a shape" in explainer.result.text()


def test_new_workspace_tensors_appear_in_the_pickers(explainer):
    explainer.workspace.add_tensor("z", torch.zeros(2), Provenance("zeros", "zeros"))
    assert explainer.pickers[0].findData("z") >= 0
