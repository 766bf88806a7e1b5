"""`tensorviz train --tutorial` prints the tutorial's table (core's, which
tests/core/training/test_tutorial_table.py holds to the tutorial's own loop)."""

from tensorviz.app import main
from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.report import tutorial_table
from tensorviz.core.training.trainer import Trainer


def test_tensorviz_train_prints_the_table(capsys):
    assert main(["train", "--tutorial"]) == 0
    out = capsys.readouterr().out.splitlines()
    history = Trainer(TrainingConfig()).run()
    assert out[:5] == tutorial_table(history, 500)
    assert out[0].startswith("Epoch [100/500], Loss: ")
    assert out[5] == f"w = {history[-1].w:.4f}, b = {history[-1].b:.4f}" and len(out) == 6


def test_one_output_form_at_a_time(capsys):
    assert main(["train", "--tutorial", "--json"]) == 2
    assert "choose one of --json, --csv and --tutorial" in capsys.readouterr().err
