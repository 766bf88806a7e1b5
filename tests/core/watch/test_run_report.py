"""run_report: the figures are torch's own (p.grad.norm() before optimizer.step()), a script that
raised says where it stopped, a damaged folder still reports with its one sentence."""

import numpy as np
import pytest
import torch
from recorded_loops import mlp, record_loop, regression_batches
from torch import nn

from tensorviz.core.watch import run_format as rf
from tensorviz.core.watch.run_reader import RunReader
from tensorviz.core.watch.run_report import report_lines, run_report
from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file


def _record(folder, steps=6, **options):
    model = mlp([8, 16, 2], nn.ReLU)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    saw = record_loop(folder, model, optimizer, regression_batches(8, 2), nn.functional.mse_loss,
                      steps, **options)  # fmt: skip
    return saw


def _report(folder):
    reader = RunReader(folder)
    reader.refresh(final=True)
    return run_report(reader)


def test_steps_hold_torchs_own_norms_and_sampled_update_ratios(tmp_path):
    saw = _record(tmp_path, steps=4, update_every=2)
    report = _report(tmp_path)
    assert [(r["step"], r["rank"]) for r in report["steps"]] == [(s, 0) for s in range(1, 5)]
    for record, grads, loss in zip(report["steps"], saw.grads, saw.losses, strict=True):
        assert record["loss"] == pytest.approx(loss)
        assert set(record["params"]) == {"0.weight", "0.bias", "2.weight", "2.bias"}
        for name, grad in grads.items():
            assert record["params"][name]["grad_norm"] == pytest.approx(float(grad.norm()))
    assert report["steps"][0]["params"]["0.weight"]["update_ratio"] is None  # not sampled
    assert report["steps"][1]["params"]["0.weight"]["update_ratio"] > 0
    assert report["ended"] == {"status": "finished", "step": 4, "error": None, "rank": 0}
    assert report["diagnoses"] == [] and report["problems"] == []
    assert report["rank_differences"] == [] and report["ranks"] == [0]
    text = "\n".join(report_lines(report))
    assert "finished at step 4" in text and "no diagnosis" in text and "test run" in text


def test_a_script_that_raised_says_where_it_stopped(tmp_path):
    saw = _record(tmp_path, steps=10, raise_at=8)
    report = _report(tmp_path)
    assert isinstance(saw.error, ValueError) and len(report["steps"]) == 7
    assert report["ended"]["status"] == "error" and report["ended"]["step"] == 7
    lines = report_lines(report)
    assert "stopped at step 7 with ValueError: bad batch at step 8" in lines


def test_diagnoses_carry_kind_step_names_title_and_remedy(tmp_path):
    model = mlp([16] + [32] * 9 + [4], nn.Sigmoid)
    record_loop(tmp_path, model, torch.optim.SGD(model.parameters(), lr=0.1),
                regression_batches(16, 4), nn.functional.mse_loss, 8)  # fmt: skip
    report = _report(tmp_path)
    vanishing = next(d for d in report["diagnoses"] if d["kind"] == "vanishing_gradients")
    assert vanishing["step"] == 1 and vanishing["names"][0] == "0.weight"
    assert {"kind", "step", "names", "title", "remedy", "detail", "rank"} == set(vanishing)
    text = report_lines(report)
    assert f"  • {vanishing['title']}" in text
    assert any(line.strip().startswith("what to do: Use ReLU or GELU") for line in text)


def test_a_cut_tail_keeps_every_whole_step_and_says_so_once(tmp_path):
    _record(tmp_path, steps=5)
    (tmp_path / "rank0" / rf.EVENTS_FILE).write_text("")  # SIGKILL: no "ended" either
    steps = tmp_path / "rank0" / rf.STEPS_FILE
    steps.write_bytes(steps.read_bytes()[:-7])
    report = _report(tmp_path)
    assert [r["step"] for r in report["steps"]] == [1, 2, 3, 4]
    assert len(report["problems"]) == 1 and "cut short" in report["problems"][0]
    assert report["ended"] == {"status": None, "step": 4, "error": None, "rank": 0}
    text = report_lines(report)
    assert "no end recorded (still running, or killed): last whole step 4" in text
    assert text[-1] == f"note: {report['problems'][0]}"


def test_a_byte_edited_by_hand_costs_one_step_and_one_sentence(tmp_path):
    _record(tmp_path, steps=5)
    steps = tmp_path / "rank0" / rf.STEPS_FILE
    data = bytearray(steps.read_bytes())
    data[len(data) // 5 * 2 + 30] ^= 0x55  # inside the third frame
    steps.write_bytes(bytes(data))
    events = tmp_path / "rank0" / rf.EVENTS_FILE
    events.write_text(events.read_text() + "{not json\n")
    report = _report(tmp_path)
    assert [r["step"] for r in report["steps"]] == [1, 2, 4, 5]
    assert len(report["problems"]) == 2  # the frame, the JSON line: one sentence each
    assert report["ended"]["status"] == "finished"


def test_an_empty_run_and_one_without_parameters_report_without_error(tmp_path):
    (tmp_path / "empty").mkdir()
    write_run_file(tmp_path / "empty", name="empty", world_size=1)
    report = _report(tmp_path / "empty")
    assert report["steps"] == [] and report["ended"]["status"] is None
    assert "no step recorded yet" in report_lines(report)

    folder = tmp_path / "no-params"
    folder.mkdir()
    write_run_file(folder, name="none", world_size=1)
    writer = RankStreamWriter(folder, 0)
    writer.write_schema({"schema": 0, "params": [], "modules": []})
    for step in (1, 2):
        writer.write_step({"step": step, "schema": 0, "loss": None}, {})
    writer.close()
    report = _report(folder)
    assert [r["params"] for r in report["steps"]] == [{}, {}]
    assert report["steps"][0]["loss"] is None and report["diagnoses"] == []


def test_ranks_are_reported_side_by_side_with_their_difference(tmp_path):
    write_run_file(tmp_path, name="ddp", world_size=2)
    for rank in (0, 1):
        writer = RankStreamWriter(tmp_path, rank)
        writer.write_schema({"schema": 0, "params": [{"name": "w", "shape": [2]}], "modules": []})
        for step in (1, 2, 3):
            weight = 1.0 + (0.5 if rank == 1 and step == 3 else 0.0)
            writer.write_step({"step": step, "schema": 0, "loss": 0.1 * rank},
                              {"grad_norm": np.ones(1, np.float32),
                               "weight_norm": np.array([weight], np.float32)})  # fmt: skip
        writer.write_event("ended", status="finished", step=3)
        writer.close()
    report = _report(tmp_path)
    assert [(r["rank"], r["step"]) for r in report["steps"]] == [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 1),
        (1, 2),
        (1, 3),
    ]
    (difference,) = report["rank_differences"]
    assert difference["rank"] == 1 and difference["step"] == 3 and difference["names"] == ["w"]
    assert f"  • {difference['title']}" in report_lines(report)
