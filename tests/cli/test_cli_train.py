"""`tensorviz train`: the same trainer as the GUI, headless."""

import csv
import json

import pytest
import torch

from tensorviz.app import main
from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.trainer import Trainer


def test_json_has_exactly_the_documented_structure(capsys):
    assert main(["train", "--json", "--epochs", "50"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"config", "history", "final", "least_squares"}
    assert set(data["history"][0]) == {"epoch", "loss", "w", "b", "grad_w", "grad_b"}
    assert set(data["final"]) == {"w", "b", "loss"} and set(data["least_squares"]) == {"w", "b"}
    expected = Trainer(TrainingConfig(epochs=50)).run()
    assert [h["loss"] for h in data["history"]] == [r.loss for r in expected]
    assert data["final"] == {"w": expected[-1].w, "b": expected[-1].b, "loss": expected[-1].loss}
    assert data["config"]["lr"] == 0.01 and data["config"]["seed"] == 42


def test_options_reach_the_trainer(capsys):
    args = ["--epochs", "30", "--lr", "0.02", "--optimizer", "sgd", "--momentum", "0.5"]
    assert main(["train", "--json", *args, "--seed", "3", "--n", "40", "--noise", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    config = TrainingConfig(
        seed=3, n=40, noise=1, lr=0.02, epochs=30, update_style="sgd", momentum=0.5
    )
    assert data["final"]["w"] == Trainer(config).run()[-1].w


def test_text_report_names_learned_true_and_least_squares(capsys):
    assert main(["train", "--epochs", "100"]) == 0
    out = capsys.readouterr().out
    assert "Epoch 100/100" in out and "true" in out and "least squares" in out


def test_csv_is_written(tmp_path, capsys):
    path = tmp_path / "loss.csv"
    assert main(["train", "--epochs", "25", "--csv", str(path)]) == 0
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 25 and rows[0]["epoch"] == "1"
    assert [p.name for p in tmp_path.iterdir()] == ["loss.csv"]


@pytest.mark.parametrize(
    "args",
    [
        ["--lr", "-1"],
        ["--epochs", "zero"],
        ["--optimizer", "rmsprop"],
        ["--optimizer", "manual", "--momentum", "0.9"],
        ["--device", "tpu"],
        ["--json", "--csv", "x.csv"],
        ["--data", "/no/such/file.csv"],
    ],
)
def test_bad_input_is_exit_2_with_one_line(args, capsys):
    assert main(["train", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tensorviz train: error:")


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA")
def test_cuda_without_a_device_is_bad_input(capsys):
    assert main(["train", "--device", "cuda"]) == 2
    assert "no CUDA device" in capsys.readouterr().err


def test_divergence_is_reported_with_remedies(capsys):
    assert main(["train", "--lr", "0.1", "--json"]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert len(data["history"]) == 25 and data["final"]["loss"] is None
    assert "epoch 25" in captured.err and "clip_grad_norm_" in captured.err
