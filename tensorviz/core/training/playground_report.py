"""What the playground view and `tensorviz train --task …` show about a network run, as plain
data: the experiment (points, split, plane, tile layout, feature maps, first pictures), the
gradient verdict (vanishing or exploding), a stopped run explained, and the exports (loss
history CSV, state_dict .pt), written atomically."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

import numpy as np
import torch

from tensorviz.core.atomic_files import write_atomically, write_text_atomically
from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.training.data import TrainingConfig, TrainingConfigError
from tensorviz.core.training.network import build_network
from tensorviz.core.training.network_choices import TASKS
from tensorviz.core.training.network_picture import NetworkLayout
from tensorviz.core.training.phased_loop import Divergence
from tensorviz.core.training.playground_trainer import (
    NetworkPictures,
    NetworkRecord,
    PlaygroundTrainer,
)
from tensorviz.core.training.report import diverged_title
from tensorviz.core.training.script_export import playground_script
from tensorviz.core.translation import _

VANISHING = 1e-3  # first layer's gradient norm below this fraction of the last layer's
EXPLODING = 1e3


@dataclass(frozen=True)
class PlaygroundInfo:
    config: TrainingConfig
    source: str
    kind: str  # classification | regression
    dims: int
    points: np.ndarray  # (n, dims) float64, every sample
    targets: np.ndarray  # (n,) labels or (n, 1) values
    train: np.ndarray  # indices of the training samples
    test: np.ndarray
    plane: tuple[float, float, float, float]
    layout: NetworkLayout
    feature_maps: np.ndarray  # (features, g, g) or (features, g)
    pictures: NetworkPictures  # before the first update
    model_text: str  # repr(model): the nn.Sequential as torch prints it
    script: str  # the standalone script of this run (script_export), or '' when none can be
    script_problem: str  # why there is no script ('' when there is one)


def describe_playground(trainer: PlaygroundTrainer) -> PlaygroundInfo:
    data = trainer.data
    task = TASKS[trainer.config.task]
    try:
        script, problem = playground_script(trainer.config, data), ""
    except TrainingConfigError as error:
        script, problem = "", str(error)
    return PlaygroundInfo(
        config=trainer.config,
        source=data.source,
        kind=task.kind,
        dims=task.dims,
        points=data.points,
        targets=data.targets,
        train=data.train,
        test=data.test,
        plane=data.plane,
        layout=trainer.layout,
        feature_maps=trainer.feature_maps(),
        pictures=trainer.pictures(),
        model_text=repr(trainer.model),
        script=script,
        script_problem=problem,
    )


def gradient_verdict(norms: tuple[float, ...]) -> tuple[str, str, str]:
    """(kind, headline, explanation) for the per-layer gradient norms, first layer first: kind
    is vanishing, exploding, healthy or '' (nothing to judge yet); the texts in the language in
    force."""
    if len(norms) < 2 or not all(math.isfinite(n) for n in norms) or norms[-1] <= 0:
        return "", "", ""
    ratio = norms[0] / norms[-1]
    last = len(norms)
    if ratio < VANISHING:
        return (
            "vanishing",
            _("Vanishing: layer 1 gets {ratio:.1e} of layer {last}'s gradient").format(
                ratio=ratio, last=last
            ),
            _(
                "Backward multiplies the gradient by each layer's activation slope (sigmoid's is "
                "at most 0.25), so it shrinks layer by layer and the first layers barely learn. "
                "Try ReLU or Tanh, or fewer layers."
            ),
        )
    if ratio > EXPLODING:
        return (
            "exploding",
            _("Exploding: layer 1 gets {ratio:.1e} × layer {last}'s gradient").format(
                ratio=ratio, last=last
            ),
            _(
                "The gradient grows layer by layer on its way back; lower the learning rate or "
                "clip the gradient norm."
            ),
        )
    return (
        "healthy",
        _("Healthy: layer 1 gets {ratio:.2g} × layer {last}'s gradient").format(
            ratio=ratio, last=last
        ),
        _(
            "Every layer receives a usable gradient (the ratio lies within {low:g} … {high:g})."
        ).format(low=VANISHING, high=EXPLODING),
    )


def explain_network_divergence(
    divergence: Divergence, record: NetworkRecord | None
) -> ExplainedError:
    """The divergence explained; torch raised nothing (inf is a valid float)."""
    where = ""
    if record is not None:
        where = _("At epoch {epoch}: loss = {loss:.4g}. ").format(
            epoch=record.epoch, loss=record.loss
        )
    return ExplainedError(
        kind="divergence",
        title=diverged_title(divergence),
        torch_message="",
        explanation=where
        + _(
            "The updates overshoot by more than they correct, so the loss and the gradients grow "
            "until float32 overflows to inf (and inf − inf gives NaN). Training stopped there."
        ),
        fix=_(
            "{remedies} — one click below applies a remedy and trains again (hover a button for "
            "why)."
        ).format(remedies=" · ".join(r.label for r in divergence.remedies)),
    )


def network_history_csv(history: list[NetworkRecord]) -> str:
    layers = len(history[0].grad_norms) if history else 0
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        ["epoch", "loss", "test_loss", "test_accuracy"]
        + [f"grad_norm_{i}" for i in range(1, layers + 1)]
    )
    for r in history:
        row = [r.epoch, repr(r.loss), repr(r.test_loss), repr(r.test_accuracy)]
        writer.writerow(row + [repr(n) for n in r.grad_norms])
    return buffer.getvalue()


def write_network_history_csv(path, history: list[NetworkRecord]) -> None:
    write_text_atomically(path, network_history_csv(history))


def rebuilt_model(config: TrainingConfig, state: dict[str, np.ndarray]) -> torch.nn.Sequential:
    """A fresh CPU nn.Sequential of `config` holding the parameters `state` (name → array, as
    the pictures carry them): the trained model, outside the worker thread."""
    classes = 2 if TASKS[config.task].kind == "classification" else 0
    model = build_network(config, classes)
    model.load_state_dict({name: torch.from_numpy(np.array(v)) for name, v in state.items()})
    return model


def save_network_parameters(path, config: TrainingConfig, state: dict[str, np.ndarray]) -> None:
    """torch.save({'state_dict', 'config'}) atomically: load it with
    model.load_state_dict(torch.load(path)['state_dict'])."""
    payload = {
        "state_dict": rebuilt_model(config, state).state_dict(),
        "config": config.to_dict(),
    }
    write_atomically(path, lambda temporary: torch.save(payload, temporary))
