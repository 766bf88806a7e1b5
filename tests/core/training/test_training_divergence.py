"""A diverging Training run against plain torch: stopped at the first non-finite epoch, explained
in the app's words, and every remedy it offers (lower lr, normalised x, gradient clipping) really
finishes the run."""

import math

import pytest
import torch
from reference_loop import plain_loop, reference_data

from tensorviz.core.training.data import (
    TrainingConfig,
    least_squares,
    make_data,
)
from tensorviz.core.training.trainer import Trainer, apply_remedy


def test_too_large_learning_rate_is_stopped_at_the_first_non_finite_epoch():
    _, _, losses = plain_loop(lr=0.1, epochs=60)
    first_bad = next(i for i, loss in enumerate(losses, start=1) if not math.isfinite(loss))
    trainer = Trainer(TrainingConfig(lr=0.1))
    trainer.run()
    divergence = trainer.divergence
    assert divergence is not None and divergence.epoch == first_bad == trainer.epoch
    assert divergence.quantity == "loss" and math.isinf(divergence.value)
    assert {r.key for r in divergence.remedies} == {"lower_lr", "normalise_x", "clip_grad_norm"}
    assert trainer.step_epoch() is None


@pytest.mark.parametrize("remedy", ["lower_lr", "normalise_x", "clip_grad_norm"])
def test_each_remedy_fixes_the_diverging_run(remedy):
    config = apply_remedy(TrainingConfig(lr=0.1, epochs=300), remedy)
    trainer = Trainer(config)
    trainer.run()
    assert trainer.divergence is None and math.isfinite(trainer.history[-1].loss)


def test_clipping_caps_the_step_like_clip_grad_norm():
    trainer = Trainer(TrainingConfig(epochs=1, clip_grad_norm=1.0))
    record = trainer.run()[0]
    x, y = reference_data()
    torch.manual_seed(42)
    w, b = torch.randn(1, requires_grad=True), torch.randn(1, requires_grad=True)
    ((w * x + b - y) ** 2).mean().backward()
    torch.nn.utils.clip_grad_norm_([w, b], 1.0)
    with torch.no_grad():
        w -= 0.01 * w.grad
    assert record.clipped and record.w == w.item()


def _min_mse(config):
    data = make_data(config)
    w, b = least_squares(data.x, data.y)
    return float(((w * data.x.double() + b - data.y.double()) ** 2).mean())


@pytest.mark.parametrize(
    "changes",
    [
        {"lr": 0.05},
        {"lr": 0.1},
        {"lr": 0.5},
        {"lr": 0.5, "batch_size": 10},
        {"lr": 0.3, "update_style": "sgd", "momentum": 0.9},
        {"lr": 2.0, "n": 300, "seed": 7},
    ],
)
def test_the_suggested_lr_converges_where_the_run_diverged(changes):
    epochs = 300 if "batch_size" in changes else 2000  # mini-batches: 10 updates an epoch
    config = TrainingConfig(epochs=epochs, **changes)
    diverged = Trainer(config)
    diverged.run()
    assert diverged.divergence is not None
    remedy = {r.key: r for r in diverged.divergence.remedies}["lower_lr"]
    fixed_config = apply_remedy(config, remedy)
    assert remedy.label == f"Lower lr to {fixed_config.lr:g}" and fixed_config.lr < config.lr
    fixed = Trainer(fixed_config)
    fixed.run()
    assert fixed.divergence is None and len(fixed.history) == epochs
    tolerance = 1.05 if config.batch_size is None else 1.5  # mini-batches keep some noise
    assert fixed.history[-1].loss <= tolerance * _min_mse(config)


def test_the_suggestion_for_the_reference_data_is_below_the_stability_bound():
    from tensorviz.core.training.remedies import stable_lr_bound, suggested_lr

    x, _ = reference_data()
    config = TrainingConfig(lr=0.5)
    xd = torch.cat([x.double(), torch.ones_like(x, dtype=torch.float64)], dim=1)
    hessian = 2 / 100 * xd.T @ xd
    bound = 2 / torch.linalg.eigvalsh(hessian).max().item()
    assert stable_lr_bound(config, x) == pytest.approx(bound, rel=1e-9)
    assert suggested_lr(config, x) <= bound / 2
    # Just above the bound the plain loop diverges; just below it converges.
    assert not math.isfinite(plain_loop(lr=bound * 1.05, epochs=3000)[2][-1])
    assert math.isfinite(plain_loop(lr=bound * 0.95, epochs=3000)[2][-1])


def test_every_remedy_offered_finishes_the_run():
    config = TrainingConfig(lr=0.5, epochs=500)
    trainer = Trainer(config)
    trainer.run()
    for remedy in trainer.divergence.remedies:
        fixed = Trainer(apply_remedy(config, remedy))
        fixed.run()
        assert fixed.divergence is None, remedy.key


def test_gradient_norm_does_not_overflow_where_the_gradients_are_finite():
    trainer = Trainer(TrainingConfig(lr=0.5))
    trainer.run()
    last = trainer.history[-1]
    assert math.isfinite(last.grad_w) and math.isfinite(last.grad_b)
    expected = torch.linalg.vector_norm(
        torch.tensor([last.grad_w, last.grad_b], dtype=torch.float64)
    )
    assert last.grad_norm == pytest.approx(expected.item(), rel=1e-12)


def test_divergence_is_explained_in_the_apps_words_not_as_torchs():
    from tensorviz.core.training.report import explain_divergence

    trainer = Trainer(TrainingConfig(lr=0.5))
    trainer.run()
    explained = explain_divergence(trainer.divergence, trainer.history[-1])
    assert explained.torch_message == ""  # torch raised nothing: inf is a float
    assert "At epoch 13" in explained.explanation
