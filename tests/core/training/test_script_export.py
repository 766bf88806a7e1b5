"""The exported script, run as a user runs it, reproduces the app's run bit for bit: the same
losses and torch.equal parameters."""

import runpy
import subprocess
import sys

import pytest
import torch

from tensorviz.core.training.data import TrainingConfig, TrainingConfigError
from tensorviz.core.training.network_choices import task_defaults
from tensorviz.core.training.playground_trainer import PlaygroundTrainer
from tensorviz.core.training.script_export import (
    playground_script,
    script_file_name,
    write_playground_script,
)


def config_of(task, **changes):
    return TrainingConfig(**{**task_defaults(task), **changes})


def assert_same_run(config, saved):
    trainer = PlaygroundTrainer(config)
    history = trainer.run()
    state = trainer.model.state_dict()
    assert set(saved["state_dict"]) == set(state)
    assert all(torch.equal(saved["state_dict"][key], state[key]) for key in state)
    assert saved["losses"] == [r.loss for r in history]
    assert saved["test_losses"] == [r.test_loss for r in history if r.test_loss is not None]


def test_the_script_run_with_plain_python_reproduces_the_run(tmp_path):
    config = config_of(
        "spirals",
        epochs=6,
        hidden_layers=(6, 5, 4),
        activations=("relu", "gelu", "sigmoid"),
        features=("x", "y", "x2", "y2", "xy", "sinx", "siny"),
        update_style="sgd",
        momentum=0.9,
        weight_decay=0.001,
        l2=0.002,
        dropout=0.2,
        clip_grad_norm=0.5,
        batch_size=25,
    )
    script = tmp_path / script_file_name(config)
    write_playground_script(script, config)
    out = tmp_path / "out.pt"
    result = subprocess.run(
        [sys.executable, str(script), str(out)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert "Epoch [6/6], Loss:" in result.stdout and "Test accuracy" in result.stdout
    assert_same_run(config, torch.load(out, weights_only=True))


@pytest.mark.parametrize(
    "config",
    [
        config_of("xor", epochs=3, loss="ce", batch_size=None, test_fraction=0.0),
        config_of("moons", epochs=3, loss="mse", activations=("none", "tanh"), lr=0.01),
        config_of("sin", epochs=3, features=("x", "sinx", "x2"), forget_zero_grad=True),
    ],
    ids=["xor-ce-full-batch", "moons-mse", "sin-forgotten-zero-grad"],
)
def test_other_scripts_reproduce_their_runs(config, tmp_path, monkeypatch, capsys):
    script = tmp_path / "run.py"
    script.write_text(playground_script(config))
    out = tmp_path / "out.pt"
    monkeypatch.setattr(sys, "argv", [str(script), str(out)])
    runpy.run_path(str(script), run_name="__main__")
    assert "final loss" in capsys.readouterr().out
    assert_same_run(config, torch.load(out, weights_only=True))


def test_the_users_own_data_is_written_into_the_script(tmp_path, monkeypatch, capsys):
    data = tmp_path / "mine.csv"
    data.write_text("x,y\n" + "".join(f"{i / 7!r},{(i / 7) ** 3!r}\n" for i in range(-20, 21)))
    config = config_of("file", data_path=str(data), normalise_x=True, epochs=4)
    text = playground_script(config)
    assert repr(20 / 7) in text and "points = (points - points.mean()) / points.std()" in text
    script = tmp_path / "run.py"
    script.write_text(text)
    data.unlink()  # the script stands alone
    out = tmp_path / "out.pt"
    monkeypatch.setattr(sys, "argv", [str(script), str(out)])
    runpy.run_path(str(script), run_name="__main__")
    saved = torch.load(out, weights_only=True)
    data.write_text("x,y\n" + "".join(f"{i / 7!r},{(i / 7) ** 3!r}\n" for i in range(-20, 21)))
    assert_same_run(config, saved)


def test_the_script_is_readable_python(tmp_path):
    config = config_of("circles", l2=0.01, clip_grad_norm=1.0, dropout=0.1)
    text = playground_script(config)
    for line in ("import torch", "nn.Sequential(", "nn.Linear(2, 8),", "nn.Tanh(),"):
        assert line in text
    assert "def make_circles(n, noise, rng):" in text and "loss.backward()" not in text
    script = tmp_path / "circles_playground.py"
    script.write_text(text)
    for command in (["check", "--select", "E,F,W,I"], ["format", "--check"]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *command, "--isolated", str(script)],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_the_linear_regression_and_bad_settings_are_refused():
    with pytest.raises(TrainingConfigError, match="linear regression"):
        playground_script(TrainingConfig())
    with pytest.raises(TrainingConfigError, match="1 to 64 units"):
        playground_script(config_of("circles", hidden_layers=(100, 8)))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="torch sees no CUDA device here")
def test_the_script_reproduces_a_cuda_run(tmp_path):
    config = config_of("moons", epochs=5, device="cuda", dropout=0.1)
    script = tmp_path / "moons_playground.py"
    write_playground_script(script, config)
    out = tmp_path / "out.pt"
    result = subprocess.run(
        [sys.executable, str(script), str(out)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    saved = torch.load(out, weights_only=True)
    trainer = PlaygroundTrainer(config)
    history = trainer.run()
    state = trainer.model.state_dict()
    assert all(torch.equal(saved["state_dict"][k].cuda(), state[k]) for k in state)
    assert saved["losses"] == [r.loss for r in history]
