"""Pause / Step / Continue / Run to N on a real training loop: it holds at the asked step (its
parameters stop changing, and equal torch's own run stopped there), Step advances exactly one,
Continue lets it finish as if never held, a vanished viewer lets it go, and nothing holds it
without a command."""

import json
import os
import time
from types import SimpleNamespace

import pytest
import torch
from step_control_loop import GatedLoop, make_training, reference_parameters

import tensorviz
from tensorviz.core.watch import run_format as rf
from tensorviz.core.watch import step_control
from tensorviz.core.watch.run_reader import RunReader
from tensorviz.core.watch.step_control import (
    HEARTBEAT_FILE,
    ControlCommandError,
    StepGate,
    read_control,
    send,
)


@pytest.fixture
def loop(tmp_path):
    made = []

    def start(steps=8, **options):
        gated = GatedLoop(tmp_path, steps, **options)
        made.append(gated)
        return gated

    yield start
    for gated in made:
        gated.close()


def assert_parameters_equal(found: dict, expected: dict) -> None:
    assert found.keys() == expected.keys()
    for name in found:
        assert torch.equal(found[name], expected[name]), name


def test_run_to_holds_the_loop_at_that_step_before_its_update(loop, tmp_path):
    gated = loop()
    send(gated.folder, "run_to", 3)
    gated.start()
    gated.wait_paused(3)
    held = gated.parameters()
    assert_parameters_equal(held, reference_parameters(2))  # steps 1 and 2 updated, not 3
    gated.wait_polls(3)
    assert_parameters_equal(gated.parameters(), held)  # held: nothing changes
    assert gated.gate.paused.step == 3 and 4 not in gated.seen
    send(gated.folder, "continue")
    gated.wait_ended()
    assert gated.error is None
    assert_parameters_equal(gated.parameters(), reference_parameters(8))  # as if never held
    gated.run.close()
    events = [e["event"] for e in RunReader(gated.folder).ranks[0].events]
    assert events == ["started", "paused", "resumed", "ended"]


def test_step_advances_exactly_one_step_then_holds_again(loop, tmp_path):
    gated = loop()
    send(gated.folder, "run_to", 2)
    gated.start()
    gated.wait_paused(2)
    send(gated.folder, "step")
    gated.wait_paused(3)
    assert_parameters_equal(gated.parameters(), reference_parameters(2))
    send(gated.folder, "step")
    gated.wait_paused(4)
    assert_parameters_equal(gated.parameters(), reference_parameters(3))
    assert 5 not in gated.seen
    resumed = [e for e in gated.events if e["event"] == "resumed"]
    assert [(e["step"], e["reason"]) for e in resumed] == [(2, "step"), (3, "step")]


def test_run_to_from_a_pause_runs_on_to_that_step(loop, tmp_path):
    gated = loop()
    send(gated.folder, "run_to", 2)
    gated.start()
    gated.wait_paused(2)
    send(gated.folder, "run_to", 6)
    gated.wait_paused(6)
    assert_parameters_equal(gated.parameters(), reference_parameters(5))
    paused = [e["step"] for e in gated.events if e["event"] == "paused"]
    assert paused == [2, 6]  # nothing held it in between


def test_a_run_to_a_step_already_passed_keeps_the_pause(loop, tmp_path):
    gated = loop()
    send(gated.folder, "run_to", 4)
    gated.start()
    gated.wait_paused(4)
    send(gated.folder, "run_to", 2)
    gated.wait_polls(3)
    assert gated.gate.paused.step == 4 and 5 not in gated.seen


def test_pause_holds_the_running_loop_at_a_boundary_with_its_graph(loop, tmp_path):
    gated = loop(steps=100_000)
    gated.start()
    send(gated.folder, "pause")
    event = gated.wait_for(lambda e: e["event"] == "paused")
    paused = gated.gate.paused
    assert paused.step == event["step"] and paused.backward is not None
    assert event["step"] + 1 not in gated.seen
    send(gated.folder, "continue")
    assert gated.wait_for(lambda e: e["event"] == "resumed")["reason"] == "continue"


def test_a_pause_sent_mid_step_holds_the_next_step_whole(loop):
    def pause_after_the_forward_of_step_3(gated, step):
        if step == 3:
            send(gated.folder, "pause")

    gated = loop(after_forward=pause_after_the_forward_of_step_3).start()
    gated.wait_paused(4)
    paused = gated.gate.paused
    assert paused.backward is not None and paused.backward.roots[0] is gated.seen[4]["loss"]
    (batch,) = paused.inputs
    assert torch.equal(batch, gated.x) and torch.equal(paused.outputs, gated.seen[4]["outputs"])
    assert [e["step"] for e in gated.events if e["event"] == "paused"] == [4]


def test_the_inputs_are_kept_only_while_a_pause_is_on_its_way(tmp_path):
    model, optimizer, x, y = make_training()
    run = tensorviz.watch(model, optimizer, log_dir=tmp_path)
    watched = run._models

    def one_step():
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()

    def kept() -> bool:
        return watched.keep_root_io and all(r.inputs is not None for r in watched.roots)

    for _ in range(3):
        one_step()
    assert not watched.keep_root_io and all(r.inputs is None for r in watched.roots)
    send(run.folder, "run_to", 10)
    for step in range(4, 10):
        one_step()
        assert watched.keep_root_io == (step == 9)  # kept for step 10's forward only
    send(run.folder, "continue")
    one_step()
    assert not kept() and all(r.inputs is None and r.output is None for r in watched.roots)
    run.close()


def test_no_command_never_holds_the_loop(loop, tmp_path):
    gated = loop(steps=30).start()
    gated.wait_ended()
    assert (
        gated.error is None and gated.gate.pauses == 0 and gated.events[-1]["event"] == "loop_ended"
    )
    assert len(gated.events) == 1
    assert_parameters_equal(gated.parameters(), reference_parameters(30))
    assert not (gated.folder / rf.CONTROL_FILE).exists()


def test_a_command_left_from_before_the_gate_is_not_obeyed(tmp_path):
    send(tmp_path, "pause")
    gate = StepGate(tmp_path, lambda *a, **k: pytest.fail("no event"), viewer_timeout=600)
    for step in (1, 2, 3):
        gate.at_step(SimpleNamespace(step=step, models=None))
    assert gate.pauses == 0 and gate.paused is None


def test_a_vanished_viewer_releases_the_pause(loop, tmp_path):
    gated = loop(viewer_timeout=15.0)
    send(gated.folder, "run_to", 2)
    gated.start()
    gated.wait_paused(2)
    long_ago = time.time() - 3600
    os.utime(gated.folder / HEARTBEAT_FILE, (long_ago, long_ago))  # the viewer stopped beating
    resumed = gated.wait_for(lambda e: e["event"] == "resumed")
    assert resumed["reason"] == "viewer_gone"
    gated.wait_ended()
    assert gated.gate.pauses == 1
    assert_parameters_equal(gated.parameters(), reference_parameters(8))


def test_a_pause_asked_by_a_viewer_that_is_gone_is_dropped(loop, tmp_path):
    gated = loop()
    send(gated.folder, "run_to", 2)
    (gated.folder / HEARTBEAT_FILE).unlink()
    gated.start()
    gated.wait_ended()
    assert gated.gate.pauses == 0
    assert [e["event"] for e in gated.events[:1]] == ["note"]


def test_the_paused_step_holds_the_loops_own_tensors(loop, tmp_path):
    gated = loop()
    send(gated.folder, "run_to", 3)
    gated.start()
    gated.wait_paused(3)
    paused = gated.gate.paused
    seen = gated.seen[3]
    assert paused.loss is seen["loss"]  # the very tensor backward() was called on
    # inputs and outputs as the recorder keeps them: detached, the same memory as the loop's
    assert torch.equal(paused.outputs, seen["outputs"])
    assert paused.outputs.data_ptr() == seen["outputs"].data_ptr()
    (batch,) = paused.inputs  # the root model's positional arguments
    assert batch.data_ptr() == gated.x.data_ptr() and torch.equal(batch, gated.x)
    assert paused.models == {"model": gated.model}
    for name, parameter in gated.model.named_parameters():
        assert paused.parameters[f"model.{name}"] is parameter
        assert paused.gradients[f"model.{name}"] is parameter.grad
        assert torch.equal(paused.gradients[f"model.{name}"], seen["grads"][name])
    values = paused.workspace_values()
    assert values["loss"] is seen["loss"] and values["inputs"] is batch
    assert values["model_0_weight_grad"] is gated.model[0].weight.grad


def test_the_paused_graph_is_the_one_torch_built_with_the_pass_the_loop_ran(loop, tmp_path):
    gated = loop()
    send(gated.folder, "run_to", 2)
    gated.start()
    gated.wait_paused(2)
    paused = gated.gate.paused
    loss = gated.seen[2]["loss"]
    walked, pending = set(), [loss.grad_fn]
    while pending:  # torch's own graph: grad_fn.next_functions, walked
        fn = pending.pop()
        if fn is None or id(fn) in walked:
            continue
        walked.add(id(fn))
        pending.extend(next_fn for next_fn, _ in fn.next_functions)
    graph = paused.graph
    assert {id(fn) for fn in graph.functions.values()} == walked
    record = paused.backward.record
    assert sorted(v.node for v in record.visits) == sorted(graph.functions)  # each node once
    leaves = {graph.graph.nodes[v.node]["label"]: v.leaf_grad for v in record.visits if v.leaf_grad}
    for name, parameter in gated.model.named_parameters():
        summary = leaves[f"model.{name}"]
        assert torch.equal(torch.as_tensor(summary.values).reshape(parameter.shape),
                           parameter.grad)  # fmt: skip
    assert paused.backward.roots[0] is loss and not paused.backward.retain_graph


def test_steps_that_do_not_pause_record_no_graph(loop, monkeypatch):
    started = []

    class CountedCapture(step_control.BackwardCapture):
        @classmethod
        def start(cls, loss, models=None):
            started.append(loss)
            return super().start(loss, models)

    monkeypatch.setattr(step_control, "BackwardCapture", CountedCapture)
    gated = loop()
    send(gated.folder, "run_to", 4)
    gated.start()
    gated.wait_paused(4)
    assert started == [gated.seen[4]["loss"]]  # the pass of step 4 alone


def test_commands_are_checked_and_numbered(tmp_path):
    assert read_control(tmp_path) is None
    first = send(tmp_path, "pause")
    second = send(tmp_path, "run_to", 12)
    assert (first.seq, second.seq) == (1, 2)
    written = json.loads((tmp_path / rf.CONTROL_FILE).read_text())
    assert written["command"] == "run_to" and written["step"] == 12 and written["seq"] == 2
    with pytest.raises(ControlCommandError, match="no step command"):
        send(tmp_path, "rewind")
    with pytest.raises(ControlCommandError, match="whole number"):
        send(tmp_path, "run_to", 0)
    assert read_control(tmp_path) == second  # unchanged by the refused ones
    (tmp_path / rf.CONTROL_FILE).write_text("{not json")
    assert read_control(tmp_path) is None
    assert send(tmp_path, "continue").seq == 1


def test_an_unchanged_control_file_is_not_read_again(tmp_path, monkeypatch):
    send(tmp_path, "continue")
    gate = StepGate(tmp_path, lambda *a, **k: None)
    reads = []
    monkeypatch.setattr("tensorviz.core.watch.step_control.read_control",
                        lambda folder: reads.append(folder))  # fmt: skip
    for _ in range(100):
        assert gate._read_new_command() is None
    assert reads == []


def test_a_window_that_fails_to_open_keeps_the_loop_held(loop, capsys):
    def broken_window(gate):
        raise RuntimeError("no Qt here")

    gated = loop()
    gated.gate.inspector = broken_window
    send(gated.folder, "run_to", 2)
    gated.start()
    gated.wait_paused(2)
    send(gated.folder, "inspect")
    gated.wait_polls(3)
    assert gated.gate.paused.step == 2 and 3 not in gated.seen
    assert "could not be opened (RuntimeError: no Qt here); step 2 stays paused" in (
        capsys.readouterr().err
    )
