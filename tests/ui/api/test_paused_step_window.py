"""A watched loop paused at a step, inspected: the window opens in the loop's own thread on that
step's very tensors and the backward pass the loop ran (steppable in the Autograd area), and
Continue from the viewer closes it and lets the loop finish."""

import signal

import pytest
import torch
from PySide6.QtCore import QTimer

import tensorviz
from tensorviz.api import viewer
from tensorviz.core.watch.step_control import send


def test_inspect_opens_the_paused_step_and_continue_lets_the_loop_go_on(api, qtbot, tmp_path):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(5, 3)
    run = tensorviz.watch(model, optimizer, log_dir=tmp_path)
    folder, written = run.folder, run.write_event

    def write_event(name, **fields):
        written(name, **fields)
        if name == "paused":
            send(folder, "inspect")  # what the viewer's "Inspect this step" sends

    run.write_event = write_event
    seen = {}

    def look_while_open():
        window = viewer.current_window()
        if window is None or not window.is_ready() or window.current_area() != "graph":
            return
        looker.stop()
        workspace = api.api_workspace()
        seen["loss"] = workspace.tensor("loss")
        seen["weight"] = workspace.tensor("model_0_weight")
        seen["grad"] = workspace.tensor("model_0_weight_grad")
        seen["inputs"] = workspace.tensor("inputs")
        panel = window.panel("graph")
        seen["source"] = panel.source
        seen["root"] = panel.built.root
        seen["visits"] = panel.stepper.total
        seen["stepped"] = panel.stepper.step_forward()
        seen["notice"] = window.notice_bar.label.text()
        send(folder, "continue")

    looker = QTimer()
    looker.timeout.connect(look_while_open)
    looker.start(20)
    losses = []
    try:
        for step in range(1, 5):
            loss = model(x).pow(2).mean()
            losses.append(loss)
            loss.backward()
            if step == 2:
                grad_at_2 = model[0].weight.grad.clone()
                send(folder, "pause")  # arrives after this step's backward: held at step 3
            if step == 3:
                grad_at_3 = model[0].weight.grad.clone()
            optimizer.step()  # held in here at step 3, with the window open
            optimizer.zero_grad()
    finally:
        looker.stop()
        run.close()
    assert run.step_gate.pauses == 1 and viewer.current_window() is None  # closed by the Continue
    assert seen["loss"] is losses[2] and seen["root"] is losses[2]
    assert seen["weight"] is model[0].weight and seen["inputs"].data_ptr() == x.data_ptr()
    assert torch.equal(seen["grad"], grad_at_3) and not torch.equal(grad_at_3, grad_at_2)
    assert seen["source"] == ("script", "0")
    assert seen["visits"] == len(gate_graph_nodes(losses[2])) and seen["stepped"]
    assert "step 3" in seen["notice"]


def gate_graph_nodes(loss) -> set[int]:
    walked, pending = set(), [loss.grad_fn]
    while pending:
        fn = pending.pop()
        if fn is not None and id(fn) not in walked:
            walked.add(id(fn))
            pending.extend(f for f, _ in fn.next_functions)
    return walked


def test_ctrl_c_while_the_paused_step_is_open_stops_the_loop(api, qtbot, tmp_path):
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    run = tensorviz.watch(model, optimizer, log_dir=tmp_path)
    written = run.write_event

    def write_event(name, **fields):
        written(name, **fields)
        if name == "paused":
            send(run.folder, "inspect")

    run.write_event = write_event

    def press_ctrl_c_once_open():
        window = viewer.current_window()
        if window is not None and window.is_ready():
            presser.stop()
            signal.raise_signal(signal.SIGINT)  # as the terminal's Ctrl+C

    presser = QTimer()
    presser.timeout.connect(press_ctrl_c_once_open)
    presser.start(20)
    send(run.folder, "run_to", 2)
    steps = 0
    try:
        with pytest.raises(KeyboardInterrupt):
            for _ in range(5):
                model(torch.ones(1, 2)).sum().backward()
                optimizer.step()
                steps += 1
    finally:
        presser.stop()
        run.close()
    assert steps == 1 and viewer.current_window() is None
    assert run.step_gate.paused is None
