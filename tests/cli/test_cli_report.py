"""`tensorviz report RUN_DIR [--json]`: the figures, where a run stopped, the diagnoses with their
remedies (in Chinese under --lang zh_CN), exit 2 with one line for a path that is no run."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from torch import nn

from tensorviz.app import main
from tensorviz.core import translation
from tensorviz.core.watch import run_format as rf

sys.path.insert(0, str(Path(__file__).parents[1] / "core" / "watch"))
from recorded_loops import mlp, record_loop, regression_batches  # noqa: E402


@pytest.fixture
def sigmoid_run(tmp_path):
    model = mlp([16] + [32] * 9 + [4], nn.Sigmoid)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = regression_batches(16, 4)
    saw = record_loop(tmp_path / "run", model, optimizer, batches, nn.functional.mse_loss, 12,
                      raise_at=10)  # fmt: skip
    return tmp_path / "run", saw


@pytest.fixture
def english():
    yield
    translation.set_language(translation.ENGLISH)  # --lang sets it process-wide


def test_text_says_the_run_where_it_stopped_and_what_to_do(sigmoid_run, capsys, english):
    folder, _ = sigmoid_run
    assert main(["report", str(folder), "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"run test run ({folder})"
    assert out[1].startswith("1 rank(s), 9 step(s) recorded, last loss ")
    assert out[2] == "stopped at step 9 with ValueError: bad batch at step 10"
    assert "  • vanishing gradients in layers 0–7 from step 1" in out
    assert any(line.startswith("    what to do: Use ReLU or GELU") for line in out)


def test_json_holds_steps_params_and_diagnoses(sigmoid_run, capsys, english):
    folder, saw = sigmoid_run
    assert main(["report", "--json", str(folder)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["step"] for r in data["steps"]] == list(range(1, 10))
    first = data["steps"][0]
    assert first["rank"] == 0 and first["loss"] == pytest.approx(saw.losses[0])
    grad = first["params"]["0.weight"]
    assert grad["grad_norm"] == pytest.approx(float(saw.grads[0]["0.weight"].norm()), rel=1e-6)
    assert set(grad) == {"grad_norm", "weight_norm", "update_ratio"}
    kinds = {d["kind"]: d for d in data["diagnoses"]}
    assert kinds["vanishing_gradients"]["step"] == 1
    assert kinds["vanishing_gradients"]["names"][:2] == ["0.weight", "0.bias"]
    assert data["ended"]["status"] == "error" and data["problems"] == []


def test_a_chinese_run_says_the_diagnoses_in_chinese(sigmoid_run, capsys, english):
    folder, _ = sigmoid_run
    assert main(["report", str(folder), "--lang", "zh_CN"]) == 0
    out = capsys.readouterr().out
    assert "梯度消失" in out and "第 0–7 层" in out and "ReLU" in out
    assert "vanishing" not in out and "what to do" not in out
    assert "ValueError: bad batch at step 10" in out  # the script's own words stay as they are


def test_a_truncated_folder_still_reports_with_one_sentence(sigmoid_run, capsys, english):
    folder, _ = sigmoid_run
    steps = folder / "rank0" / rf.STEPS_FILE
    steps.write_bytes(steps.read_bytes()[:-3])
    assert main(["report", str(folder)]) == 0
    captured = capsys.readouterr()
    notes = [line for line in captured.out.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and "cut short" in notes[0] and captured.err == ""
    assert "8 step(s) recorded" in captured.out


def test_no_run_is_one_line_and_exit_2(tmp_path, capsys, english):
    (tmp_path / "plain").mkdir()
    for path in (tmp_path / "plain", tmp_path / "missing"):
        assert main(["report", str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
        assert str(path) in captured.err and "run folder" in captured.err


def test_as_a_command_line(sigmoid_run):
    folder, _ = sigmoid_run
    result = subprocess.run([sys.executable, "-m", "tensorviz", "report", "--json", str(folder)],
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0 and result.stderr == ""
    assert json.loads(result.stdout)["ended"]["step"] == 9
