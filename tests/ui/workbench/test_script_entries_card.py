"""The Workbench card and history of tensors a script made: the script's own line (never
`y = y = ...`), origins followed by object (x_t was made from an earlier x), `.grad` from torch."""

import pytest
import torch

from tensorviz.core.script.results import apply_script_result
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.tensors.workbench_actions import populate_default_workspace
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.workbench.workbench_panel import WorkbenchPanel


@pytest.fixture
def panel(qtbot):
    workspace = Workspace()
    populate_default_workspace(workspace)
    widget = WorkbenchPanel(workspace, ["cpu"])
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    yield widget
    widget.shutdown()


def run_script(workspace, source):
    result = ScriptRun(source, workspace.tensors()).run()
    return apply_script_result(workspace, result, source)


def test_a_script_line_is_shown_once_in_the_card_and_the_history(panel):
    source = "idx = torch.tensor([[0], [1]])\nselected = torch.gather(x[0], 1, idx)\n"
    run_script(panel.workspace, source)
    panel.select("selected")
    line = "selected = torch.gather(x[0], 1, idx)  # script, line 2"
    assert panel.identity.code.text() == f"<code>{line}</code>"
    history = [panel.history.steps.item(i).text() for i in range(panel.history.steps.count())]
    assert history == [line]


def test_x_t_says_it_was_made_from_an_earlier_x_once_a_script_replaced_x(panel):
    old_x = panel.workspace.tensor("x")
    run_script(panel.workspace, "x = torch.zeros(2)\n")
    assert panel.workspace.tensor("x") is not old_x
    panel.select("x_t")
    origin = panel.identity.origin.text()
    assert "an earlier x, replaced since" in origin and "href='x'" not in origin
    assert panel.workspace.parents("x_t") == []
    assert panel.identity.verdict.isHidden()  # no verdict against the new, unrelated x
    panel.workspace.undo()  # the old x is back: x_t is made from it again, linked
    panel.select("x_t")
    assert "href='x'" in panel.identity.origin.text()
    assert panel.identity.verdict.text().startswith("view of x")


def test_a_deleted_input_says_deleted(panel):
    panel.workspace.delete("x")
    panel.select("x_t")
    assert "an earlier x, deleted since" in panel.identity.origin.text()


def test_the_card_shows_grad_as_torch_keeps_it(panel):
    run_script(panel.workspace, "w = torch.ones(3, requires_grad=True)\n(w * 2).sum().backward()\n")
    panel.select("w")
    grad = panel.workspace.tensor("w").grad
    assert panel.identity.value_labels[".grad"].text() == "[3] 2, 2, 2"
    assert torch.equal(grad, torch.full((3,), 2.0))
    assert panel.identity.value_labels["is_leaf"].text() == "True"
    panel.select("x")
    assert panel.identity.value_labels[".grad"].text() == "None"


def test_the_card_reads_grad_again_when_the_workbench_is_shown(panel):
    run_script(panel.workspace, "w = torch.ones(2, requires_grad=True)\n")
    panel.select("w")
    assert panel.identity.value_labels[".grad"].text() == "None"
    panel.hide()
    (panel.workspace.tensor("w") * 3).sum().backward()  # e.g. the Autograd area's Backward
    panel.show()
    assert panel.identity.value_labels[".grad"].text() == "[2] 3, 3"
