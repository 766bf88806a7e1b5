"""The Captured list after a run that raised, stopped or did not parse: this run's tensors (or
why there are none), never the previous run's; autograd columns read from torch; Redo."""

import pytest
import torch
from PySide6.QtCore import Qt

from tensorviz.core.tensors.workbench_actions import populate_default_workspace
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.script.captured_list import COLUMNS
from tensorviz.ui.script.script_panel import ScriptPanel

TIMEOUT = 20_000


@pytest.fixture
def workspace():
    ws = Workspace()
    populate_default_workspace(ws)
    return ws


@pytest.fixture
def panel(qtbot, workspace, app_settings):
    widget = ScriptPanel(workspace, app_settings)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    yield widget
    widget.shutdown()


def run(qtbot, panel, source):
    panel.editor.setPlainText(source)
    with qtbot.waitSignal(panel.run_finished, timeout=TIMEOUT) as finished:
        panel.run_button.click()
    return finished.args[0]


def cell(panel, name, column):
    tree = panel.captured.tree
    for i in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(i)
        if item.data(0, Qt.ItemDataRole.UserRole) == name:
            return item.text(COLUMNS.index(column))
    raise AssertionError(f"{name} is not in the Captured list")


def test_a_failed_run_lists_what_existed_before_the_error(qtbot, panel, workspace):
    assert run(qtbot, panel, "old = torch.ones(1)\n") == "finished"
    source = "a = torch.arange(6.0)\nb = a.view(2, 3).t()\nc = b.view(6)\n"
    assert run(qtbot, panel, source) == "failed"
    assert panel.captured.names() == ["a", "b"]  # not the previous run's `old`
    assert panel.captured.title.text() == "Captured before the error on line 3"
    assert cell(panel, "b", "") == "before error"
    assert "captured before the error" in panel.status.text()
    panel.captured.select("b")
    assert panel.captured.layout_button.isEnabled()
    with qtbot.waitSignal(panel.layout_requested) as requested:
        panel.captured.layout_button.click()
    assert requested.args == ["b"]
    b = workspace.tensor("b")
    assert b.stride() == torch.arange(6.0).view(2, 3).t().stride()


@pytest.mark.parametrize(
    ("source", "says"),
    [("a = torch.ones(2)\nif True\n", "Syntax error on line 2"), ("raise KeyError(1)\n", "")],
)
def test_a_run_with_nothing_to_show_empties_the_list(qtbot, panel, source, says):
    assert run(qtbot, panel, "old = torch.ones(1)\n") == "finished"
    run(qtbot, panel, source)
    assert panel.captured.names() == [] and says in panel.captured.notes.text()
    assert panel.captured.notes.isVisible()


def test_autograd_columns_are_what_torch_says(qtbot, panel, workspace):
    source = "w = torch.tensor(2.0, requires_grad=True)\ny = w ** 2\ny.backward()\nk = x * 1\n"
    assert run(qtbot, panel, source) == "finished"
    w, y = workspace.tensor("w"), workspace.tensor("y")
    assert cell(panel, "w", "requires_grad") == str(w.requires_grad) == "True"
    assert cell(panel, "w", "is_leaf") == "True" and cell(panel, "y", "is_leaf") == "False"
    assert cell(panel, "y", "grad_fn") == type(y.grad_fn).__name__ == "PowBackward0"
    assert cell(panel, "w", ".grad") == f"{w.grad.item():.4g}" == "4"
    assert cell(panel, "y", ".grad") == "None (not a leaf)"
    assert cell(panel, "k", ".grad") == "" and cell(panel, "k", "requires_grad") == "False"


def test_redo_puts_a_run_back_with_the_variables_the_next_run_sees(qtbot, panel, workspace):
    x_before = workspace.tensor("x").clone()
    assert run(qtbot, panel, "steps = 3\na = torch.ones(2)\nx.mul_(2)\n") == "finished"
    a = workspace.tensor("a")
    panel.undo()
    assert "a" not in workspace and torch.equal(workspace.tensor("x"), x_before)
    panel.redo()
    assert workspace.tensor("a") is a and torch.equal(workspace.tensor("x"), x_before * 2)
    assert run(qtbot, panel, "n = steps\n") == "finished"  # the redone run's variables


def test_the_graph_button_opens_the_scripts_own_backward_pass(qtbot, window):
    panel = window.panel("script")
    window.show_area("script")
    source = "w = torch.tensor(2.0, requires_grad=True)\nloss = (w * 3) ** 2\nloss.backward()\n"
    run(qtbot, panel, source)
    panel.captured.select("loss")
    panel.captured.graph_button.click()
    graph = window.panel("graph")
    assert window.current_area() == "graph" and graph.source == ("script", "0")
    graph.run_to_end()
    (leaf,) = graph.graph.nodes_of_kind("accumulate_grad")
    w = window.context.workspace.tensor("w")
    assert graph.view.items_of(leaf)[0].detail == f"grad = {w.grad.item():g}" == "grad = 36"
