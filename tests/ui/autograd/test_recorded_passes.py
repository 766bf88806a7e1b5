"""Backward a learner can step: the script's own pass (recorded as it ran), the accumulation
preset without retain_graph (4 → 8 → 12), and each node's local derivative in the details."""

import pytest
import torch

from tensorviz.core.autograd.script_backward import ScriptBackwardRecorder
from tensorviz.core.script.results import apply_script_result
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.script.source import SCRIPT_FILENAME
from tensorviz.core.tensors.workspace import Provenance, Workspace
from tensorviz.ui.autograd.graph_panel import GraphPanel

TUTORIAL = "x = torch.tensor(2.0, requires_grad=True)\ny = x**2 + 3 * x\ny.backward()\n"


@pytest.fixture
def workspace():
    return Workspace()


@pytest.fixture
def panel(qtbot, workspace):
    widget = GraphPanel(workspace)
    qtbot.addWidget(widget)
    widget.resize(900, 600)
    widget.show()
    yield widget
    widget.shutdown()


def run_script(workspace, source):
    recorder = ScriptBackwardRecorder(SCRIPT_FILENAME)
    result = ScriptRun(source, workspace.tensors(), around_user_code=[recorder.installed]).run()
    apply_script_result(workspace, result, source)
    return recorder


def leaf_node(panel):
    return panel.graph.nodes_of_kind("accumulate_grad")[0]


def test_the_scripts_own_backward_is_there_to_step_through(panel, workspace):
    recorder = run_script(workspace, TUTORIAL)
    panel.show_script_passes(recorder.passes, recorder.calls)
    panel.show_tensor("y")  # the Captured list's Graph button
    assert panel.source == ("script", "0") and panel.stepper is not None
    assert "script: y.backward() on line 3" in panel.picker.currentText()
    assert not panel.bar.backward_button.isEnabled()  # torch freed it: nothing to run again
    x = workspace.tensor("x")
    order = []
    while panel.bar.step_button.isEnabled():
        panel.step_forward()
        order.append(panel.stepper.current().op)
    assert order[0] == "AddBackward0" and order[-1] == "AccumulateGrad"
    (item,) = panel.view.items_of(leaf_node(panel))
    assert item.detail == f"grad = {x.grad.item():g}" == "grad = 7"
    pow_node = next(v.node for v in panel.stepper.record.visits if v.op == "PowBackward0")
    panel.select_node(pow_node)
    text = panel.details.toPlainText()
    assert "∂(x²)/∂x = 2·x = 4 at x = 2" in text
    assert "chain rule: sent to x = 1 × 4 = 4" in text
    assert "self: freed by backward" in text  # what torch says now; the numbers came first


def test_the_accumulation_preset_runs_its_forward_again_each_pass(panel):
    panel.show_preset("accumulate")
    assert not panel.retain_graph.isChecked()
    leaf = panel.graph.functions[leaf_node(panel)].variable
    shown = []
    for _ in range(3):
        record = panel.run_backward()
        assert not record.error
        panel.run_to_end()
        shown.append(panel.view.items_of(leaf_node(panel))[0].detail)
        assert panel.bar.backward_button.isEnabled()  # never left broken
    assert shown == ["grad = 4", "grad = 8", "grad = 12"] and leaf.grad.item() == 12.0
    panel.zero_grad()
    panel.run_backward()
    assert leaf.grad.item() == 4.0


def test_a_workspace_graph_the_script_freed_without_recording_says_so(panel, workspace):
    x = torch.tensor(2.0, requires_grad=True)
    y = x**2
    workspace.add_tensor("y", y, Provenance("pow", "x ** 2"))
    y.backward()  # freed outside any recording
    panel.show_tensor("y")
    assert panel.graph_freed and not panel.bar.backward_button.isEnabled()
    assert "freed" in panel.bar.backward_button.toolTip()


def test_a_node_explains_its_local_derivative_before_backward(panel):
    panel.show_preset("square")  # y = x**2 + 3*x
    mul = next(n for n, d in panel.graph.graph.nodes(data=True) if d["op"] == "MulBackward0")
    panel.select_node(mul)
    assert "∂(x·c)/∂x = c = 3" in panel.details.toPlainText()


def test_the_details_and_the_status_bar_count_the_same_nodes_and_say_what(qtbot, panel, workspace):
    from tensorviz.core.script.examples import example_by_key

    source = example_by_key("06_autograd").source
    recorder = run_script(workspace, source)
    panel.show_script_passes(recorder.passes, recorder.calls)
    messages = []
    panel.status_message.connect(messages.append)
    with qtbot.waitSignal(panel.graph_shown, timeout=30_000):
        panel.show_tensor("loss")
    loss = workspace.tensor("loss")
    functions, stack = {loss.grad_fn}, [loss.grad_fn]  # torch's own graph, walked here
    while stack:
        for next_fn, _ in stack.pop().next_functions:
            if next_fn is not None and next_fn not in functions:
                functions.add(next_fn)
                stack.append(next_fn)
    words = f"{len(functions)} backward nodes, 1 tensor"
    assert len(functions) == 7 and len(recorder.passes[-1].record.visits) == len(functions)
    assert words in panel.details.toPlainText()
    assert any(words in message for message in messages), messages
