"""The common creations in one click from start (the issue asks for at most three), made
exactly as the Create form makes them."""

import pytest
import torch
from PySide6.QtCore import Qt

from tensorviz.core.tensors.creation import CREATIONS_BY_NAME, QUICK_CREATIONS


@pytest.fixture
def panel(open_panel, qtbot):
    widget = open_panel()
    qtbot.waitExposed(widget)
    return widget


def test_every_quick_creation_takes_a_shape():
    for kind in QUICK_CREATIONS:
        assert [p.name for p in CREATIONS_BY_NAME[kind].params] == ["shape"]


@pytest.mark.parametrize("kind", QUICK_CREATIONS)
def test_one_click_from_start_creates_the_tensor(panel, qtbot, kind):
    before = panel.workspace.names()
    qtbot.mouseClick(panel.quick_create.buttons[kind], Qt.MouseButton.LeftButton)  # click 1
    (new,) = [n for n in panel.workspace.names() if n not in before]
    tensor = panel.workspace.tensor(new)
    assert tensor.shape == (2, 3) and tensor.dtype == torch.float32
    if kind in ("zeros", "ones"):
        assert torch.equal(tensor, getattr(torch, kind)(2, 3))
    assert panel.selected == new
    assert panel.workspace.entry(new).provenance.code == f"torch.{kind}(2, 3)"


def test_the_shape_is_typed_and_a_bad_one_is_explained(panel, qtbot):
    panel.quick_create.shape.setText("64, 3, 32, 32")
    qtbot.mouseClick(panel.quick_create.buttons["randn"], Qt.MouseButton.LeftButton)
    assert panel.workspace.tensor(panel.selected).shape == (64, 3, 32, 32)
    names = panel.workspace.names()
    panel.quick_create.shape.setText("2, x")
    qtbot.mouseClick(panel.quick_create.buttons["zeros"], Qt.MouseButton.LeftButton)
    assert panel.workspace.names() == names and panel.error_panel.isVisible()
    assert "shape" in panel.error_panel.explained.explanation


def test_a_bad_seed_in_the_create_form_does_not_block_the_quick_row(panel, qtbot):
    panel.create_form.seed.setText("not a number")
    qtbot.mouseClick(panel.quick_create.buttons["ones"], Qt.MouseButton.LeftButton)
    assert torch.equal(panel.workspace.tensor(panel.selected), torch.ones(2, 3))
