"""The script's own backward passes, recorded as they run: torch's order, the gradients on the
edges, .grad filling in — the same numbers as plain torch, and the script sees no difference."""

import threading

import torch

from tensorviz.core.autograd import script_backward
from tensorviz.core.autograd.script_backward import KEEP_FIRST, ScriptBackwardRecorder
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.script.source import SCRIPT_FILENAME

ORIGINAL_BACKWARD = torch.autograd.backward


def run(source: str, tensors=None):
    recorder = ScriptBackwardRecorder(SCRIPT_FILENAME)
    result = ScriptRun(source, tensors or {}, around_user_code=[recorder.installed]).run()
    assert torch.autograd.backward is ORIGINAL_BACKWARD  # the wrapper is gone after the run
    return recorder, result


def test_the_tutorials_pass_is_recorded_without_retain_graph():
    recorder, result = run(
        "x = torch.tensor(2.0, requires_grad=True)\ny = x**2 + 3 * x\ny.backward()\n"
    )
    assert result.status == "finished" and recorder.calls == 1
    (recorded,) = recorder.passes
    assert recorded.root_label == "y" and recorded.line == 3 and not recorded.retain_graph
    graph, record = recorded.graph, recorded.record
    ops = [visit.op for visit in record.visits]
    assert ops[0] == "AddBackward0" and ops[-1] == "AccumulateGrad"
    (leaf,) = graph.nodes_of_kind("accumulate_grad")
    assert graph.graph.nodes[leaf]["label"] == "x"
    x = result.namespace["x"]
    assert record.visits[-1].leaf_grad.values.item() == x.grad.item() == 7.0
    # the local derivative was read before torch freed the saved tensors
    pow_node = next(v.node for v in record.visits if v.op == "PowBackward0")
    (derivative,) = record.derivatives[pow_node].derivatives
    assert derivative.text() == "∂(x²)/∂x = 2·x = 4 at x = 2"


def test_a_training_loop_keeps_the_first_passes_and_the_latest_recorded(monkeypatch):
    monkeypatch.setattr(script_backward, "LATER_SHARE", float("inf"))  # record every pass
    source = (
        "w = torch.tensor(2.0, requires_grad=True)\n"
        "for step in range(10):\n"
        "    loss = w ** 2\n"
        "    loss.backward()\n"
    )
    recorder, result = run(source)
    assert recorder.calls == 10 and recorder.skipped == 10 - KEEP_FIRST - 1
    assert [p.number for p in recorder.passes] == [1, 2, 3, 10]
    grads = [p.record.visits[-1].leaf_grad.values.item() for p in recorder.passes]
    assert grads == [4.0, 8.0, 12.0, 40.0]  # accumulating, as torch does
    assert result.namespace["w"].grad.item() == 40.0
    assert recorder.passes[-1].title(recorder.calls) == "loss.backward() on line 4 (pass 10 of 10)"


def test_later_passes_are_not_recorded_beyond_their_share_of_the_time(monkeypatch):
    monkeypatch.setattr(script_backward, "LATER_SHARE", 0.0)  # no time for any later pass
    source = "w = torch.ones(1, requires_grad=True)\nfor _ in range(6):\n    (w * 2).backward()\n"
    recorder, result = run(source)
    assert [p.number for p in recorder.passes] == [1, 2, 3] and recorder.calls == 6
    assert result.namespace["w"].grad.item() == 12.0  # every pass still ran, as plain torch


def test_module_parameters_and_function_locals_name_the_leaves():
    source = (
        "torch.manual_seed(0)\n"
        "model = nn.Sequential(nn.Linear(3, 2))\n"
        "def step(batch):\n"
        "    out = model(batch).sum()\n"
        "    out.backward()\n"
        "step(torch.ones(4, 3))\n"
    )
    recorder, result = run(source)
    (recorded,) = recorder.passes
    labels = {
        recorded.graph.graph.nodes[n]["label"]
        for n in recorded.graph.nodes_of_kind("accumulate_grad")
    }
    assert labels == {"model.0.weight", "model.0.bias"} and recorded.root_label == "out"
    weight = result.namespace["model"][0].weight
    visit = next(
        v for v in recorded.record.visits if v.leaf_grad is not None and v.leaf_grad.shape == (2, 3)
    )
    assert torch.allclose(torch.from_numpy(visit.leaf_grad.values).float(), weight.grad)


def test_the_script_still_gets_torchs_own_error():
    source = (
        "x = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\ny.backward()\n"
    )
    recorder, result = run(source)
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    try:
        y.backward()
    except RuntimeError as error:
        torch_says = str(error).splitlines()[0]
    assert result.status == "failed" and torch_says in result.failure.traceback
    assert recorder.calls == 2 and len(recorder.passes) == 1  # the refused pass is not kept


def test_backward_on_another_thread_is_not_recorded_and_works():
    recorder = ScriptBackwardRecorder(SCRIPT_FILENAME)
    done, grads = threading.Event(), []

    def elsewhere():
        a = torch.tensor(3.0, requires_grad=True)
        (a * a).backward()
        grads.append(a.grad.item())
        done.set()

    with recorder.installed():
        assert torch.autograd.backward is not ORIGINAL_BACKWARD
        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
    assert done.is_set() and grads == [6.0] and recorder.calls == 0
    assert torch.autograd.backward is ORIGINAL_BACKWARD
