"""`tensorviz train --task …`: the playground's trainer headless, and the same script as the GUI."""

import json

import pytest

from tensorviz.app import main
from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.network_choices import task_defaults
from tensorviz.core.training.playground_trainer import PlaygroundTrainer
from tensorviz.core.training.script_export import playground_script


def test_json_reports_the_same_run_as_the_trainer(capsys):
    args = ["--task", "circles", "--layers", "6,4", "--activation", "relu,tanh", "--epochs", "4"]
    assert main(["train", "--json", *args, "--features", "x,y,xy", "--l2", "0.001"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"config", "model", "history", "final", "gradients"}
    config = TrainingConfig(**task_defaults("circles")).with_changes(
        hidden_layers=(6, 4),
        activations=("relu", "tanh"),
        features=("x", "y", "xy"),
        l2=0.001,
        epochs=4,
    )
    assert TrainingConfig.from_dict(data["config"]) == config
    expected = PlaygroundTrainer(config).run()
    assert [h["loss"] for h in data["history"]] == [r.loss for r in expected]
    assert data["history"][-1]["grad_norms"] == list(expected[-1].grad_norms)
    assert data["final"]["test_accuracy"] == expected[-1].test_accuracy
    assert data["model"].startswith("Sequential(") and "(0): Linear(in_features=3" in data["model"]


def test_text_prints_the_tutorial_style_epochs_and_the_gradient_verdict(capsys):
    layers = ",".join(["6"] * 8)
    assert main(["train", "--task", "xor", "--layers", layers, "--activation", "sigmoid",
                 "--epochs", "2", "--batch-size", "0"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "Epoch [2/2], Loss:" in out and "Test accuracy" in out
    assert "model: 2-6-6-6-6-6-6-6-6-1 network" in out and "Vanishing" in out


def test_export_script_writes_the_guis_script(tmp_path, capsys):
    path = tmp_path / "moons.py"
    assert main(["train", "--task", "moons", "--epochs", "9", "--export-script", str(path)]) == 0
    config = TrainingConfig(**task_defaults("moons")).with_changes(epochs=9)
    assert path.read_text() == playground_script(config)
    assert "python" in capsys.readouterr().out


def test_csv_has_one_row_an_epoch(tmp_path, capsys):
    path = tmp_path / "loss.csv"
    assert main(["train", "--task", "sin", "--epochs", "3", "--csv", str(path)]) == 0
    lines = path.read_text().splitlines()
    assert lines[0].startswith("epoch,loss,test_loss,test_accuracy,grad_norm_1") and len(lines) == 4


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--layers", "8"], "choose one with --task"),
        (["--task", "circles", "--layers", "8,x"], "whole numbers"),
        (["--task", "circles", "--layers", "100"], "1 to 64 units"),
        (["--task", "circles", "--activation", "relu,tanh,gelu"], "one activation per"),
        (["--task", "sin", "--loss", "ce"], "its loss is mse"),
        (["--task", "sin", "--features", "x,y"], "features are x, x2 and sinx"),
        (["--task", "circles", "--optimizer", "manual"], "optim.SGD or optim.Adam"),
        (["--task", "circles", "--export-script", "a.py", "--json"], "drop --json"),
        (["--task", "file"], "needs a data file"),
        (["--task", "mandelbrot"], "invalid choice"),
    ],
)
def test_bad_input_is_exit_2_with_one_line(args, words, capsys):
    assert main(["train", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tensorviz train: error:") and words in err
