"""The Training area's 'Epoch [100/500], Loss: …' table is what the tutorial's own loop prints,
line for line."""

import contextlib
import io

import numpy as np
import torch

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.report import tutorial_table
from tensorviz.core.training.trainer import Trainer


def tutorial_output(epochs=500, lr=0.01, seed=42) -> str:
    """The tutorial's linear regression from scratch, printing as it does."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        np.random.seed(seed)
        x = np.random.rand(100, 1) * 10
        y = 2.5 * x + 1.8 + np.random.randn(100, 1) * 2
        x, y = torch.from_numpy(x).float(), torch.from_numpy(y).float()
        torch.manual_seed(seed)
        w = torch.randn(1, requires_grad=True)
        b = torch.randn(1, requires_grad=True)
        for epoch in range(epochs):
            y_pred = w * x + b
            loss = torch.mean((y_pred - y) ** 2)
            loss.backward()
            with torch.no_grad():
                w -= lr * w.grad
                b -= lr * b.grad
                w.grad.zero_()
                b.grad.zero_()
            if (epoch + 1) % 100 == 0:
                print(f"Epoch [{epoch + 1}/{epochs}], Loss: {loss.item():.4f}")
    return printed.getvalue()


def test_the_table_is_the_tutorials_output_line_for_line():
    history = Trainer(TrainingConfig()).run()
    lines = tutorial_table(history, 500)
    assert lines == tutorial_output().splitlines()
    assert lines[0].startswith("Epoch [100/500], Loss: ") and len(lines) == 5


def test_other_lengths_and_batches_of_records():
    history = Trainer(TrainingConfig(epochs=250)).run()
    assert tutorial_table(history, 250) == tutorial_output(epochs=250).splitlines()
    halves = tutorial_table(history[:150], 250) + tutorial_table(history[150:], 250)
    assert halves == tutorial_table(history, 250)  # the panel adds them batch by batch
