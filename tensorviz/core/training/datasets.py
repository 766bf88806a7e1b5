"""The playground's data: each task's points made with NumPy from one seeded Generator, split into
training and test samples, as the tensors its loss wants.

Every generator below is self-contained (NumPy and its arguments only): the exported script
carries its source text (inspect.getsource), so the script makes the very same data::

    rng = np.random.default_rng(seed)
    points, targets = make_circles(n, noise, rng)
    order = rng.permutation(n)
    test, train = order[:n_test], order[n_test:]

Classification generators return points (n, 2) and labels (n,) of 0 and 1; regression ones
x (n, 1) and y (n, 1). The 'file' task reads the user's x, y as the linear regression does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from tensorviz.core.training.data import TrainingConfig, TrainingConfigError, load_xy
from tensorviz.core.training.network_choices import LINE, PLANE, TASKS
from tensorviz.core.translation import _


def make_blobs(n, noise, rng):
    """Two Gaussian clouds of spread `noise` around (2, 2) (class 1) and (-2, -2) (class 0)."""
    labels = np.arange(n) % 2
    centres = np.where(labels[:, None] == 1, 2.0, -2.0)
    points = centres + rng.normal(0.0, noise, size=(n, 2))
    return points, labels


def make_circles(n, noise, rng):
    """A disc of radius 2 (class 1) inside a ring from radius 3.5 to 5 (class 0)."""
    labels = np.arange(n) % 2
    radius = np.where(labels == 1, rng.uniform(0.0, 2.0, n), rng.uniform(3.5, 5.0, n))
    angle = rng.uniform(0.0, 2 * np.pi, n)
    points = np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1)
    return points + rng.normal(0.0, noise, size=(n, 2)), labels


def make_xor(n, noise, rng):
    """Points in the square [-5, 5]²; class 1 where x and y have the same sign."""
    points = rng.uniform(-5.0, 5.0, size=(n, 2))
    labels = (points[:, 0] * points[:, 1] > 0).astype(np.int64)
    return points + rng.normal(0.0, noise, size=(n, 2)), labels


def make_spirals(n, noise, rng):
    """Two arms winding out from the centre to radius 5, half a turn apart (classes 0 and 1)."""
    labels = np.arange(n) % 2
    t = (np.arange(n) // 2) / max(1, (n + 1) // 2)
    angle = 1.75 * 2 * np.pi * t + np.pi * labels
    radius = 5.0 * t
    points = np.stack([radius * np.sin(angle), radius * np.cos(angle)], axis=1)
    return points + rng.normal(0.0, noise, size=(n, 2)), labels


def make_moons(n, noise, rng):
    """Two interleaved half circles of radius 3: the upper one class 0, the lower one class 1."""
    labels = np.arange(n) % 2
    angle = rng.uniform(0.0, np.pi, n)
    upper = np.stack([np.cos(angle) - 0.5, np.sin(angle) - 0.25], axis=1)
    lower = np.stack([0.5 - np.cos(angle), 0.25 - np.sin(angle)], axis=1)
    points = 3.0 * np.where(labels[:, None] == 1, lower, upper)
    return points + rng.normal(0.0, noise, size=(n, 2)), labels


def make_sin(n, noise, rng):
    """x uniform in [-3, 3]; y = sin(2x) plus Gaussian noise."""
    x = rng.uniform(-3.0, 3.0, size=(n, 1))
    return x, np.sin(2 * x) + rng.normal(0.0, noise, size=(n, 1))


def make_abs(n, noise, rng):
    """x uniform in [-3, 3]; y = |x| plus Gaussian noise."""
    x = rng.uniform(-3.0, 3.0, size=(n, 1))
    return x, np.abs(x) + rng.normal(0.0, noise, size=(n, 1))


def make_step(n, noise, rng):
    """x uniform in [-3, 3]; y = -1 left of 0, +1 from 0 on, plus Gaussian noise."""
    x = rng.uniform(-3.0, 3.0, size=(n, 1))
    return x, np.where(x < 0, -1.0, 1.0) + rng.normal(0.0, noise, size=(n, 1))


GENERATORS = {
    "blobs": make_blobs,
    "circles": make_circles,
    "xor": make_xor,
    "spirals": make_spirals,
    "moons": make_moons,
    "sin": make_sin,
    "abs": make_abs,
    "step": make_step,
}


@dataclass(frozen=True)
class TaskData:
    """A task's samples, split. points/targets: NumPy, all samples in generation order (for the
    pictures); x_*: raw coordinates as float32 tensors (before input features); y_*: the targets
    as the loss wants them (float (n, 1) for mse and bce, int64 (n,) for ce)."""

    points: np.ndarray  # (n, dims) float64
    targets: np.ndarray  # (n,) labels, or (n, 1) float64 regression targets
    train: np.ndarray  # indices into points of the training samples
    test: np.ndarray
    x_train: torch.Tensor
    y_train: torch.Tensor
    x_test: torch.Tensor
    y_test: torch.Tensor
    plane: tuple[float, float, float, float]  # x0, x1, y0, y1 of the pictures
    source: str
    classes: int  # 2 for classification, 0 for regression
    loaded: tuple[np.ndarray, np.ndarray] | None = None  # the 'file' task: x, y as read

    @property
    def n(self) -> int:
        return int(self.points.shape[0])


def split_sizes(n: int, test_fraction: float) -> tuple[int, int]:
    """(training, test) sample counts; the split keeps at least one training sample."""
    n_test = min(int(round(n * test_fraction)), n - 1)
    return n - n_test, n_test


def targets_for_loss(targets: np.ndarray, loss: str) -> torch.Tensor:
    """Labels as cross entropy wants them (int64 class indices), else float columns."""
    if loss == "ce":
        return torch.from_numpy(targets).long()
    return torch.from_numpy(targets).float().reshape(-1, 1)


def make_task_data(config: TrainingConfig) -> TaskData:
    """The task's data for `config` (a network task), made exactly as the exported script makes
    it. Raises TrainingConfigError for a data file that cannot be used."""
    task = TASKS[config.task]
    rng = np.random.default_rng(config.seed)
    loaded = None
    if config.task == "file":
        points, targets = loaded = load_xy(config.data_path)
        if config.normalise_x:
            points = (points - points.mean()) / points.std()
        source = Path(config.data_path).name + (_(" (x normalised)") if config.normalise_x else "")
    else:
        points, targets = GENERATORS[config.task](config.n, config.noise, rng)
        source = _("{task}: {description}, n={n}, noise={noise:g}").format(
            task=task.shown_label,
            description=task.shown_description,
            n=config.n,
            noise=config.noise,
        )
    n = points.shape[0]
    n_train, n_test = split_sizes(n, config.test_fraction)
    order = rng.permutation(n)
    test, train = order[:n_test], order[n_test:]
    x = torch.from_numpy(points).float()
    if not torch.isfinite(x).all():
        raise TrainingConfigError(
            _("{source}: values beyond ±3.4e38 overflow float32").format(source=source)
        )
    y = targets_for_loss(targets, config.loss)
    return TaskData(
        points=points,
        targets=targets,
        train=train,
        test=test,
        x_train=x[train],
        y_train=y[train],
        x_test=x[test],
        y_test=y[test],
        plane=_plane(config.task, points, targets),
        source=source,
        classes=2 if task.kind == "classification" else 0,
        loaded=loaded,
    )


def _plane(task: str, points: np.ndarray, targets: np.ndarray) -> tuple[float, ...]:
    if TASKS[task].dims == 2:
        return (*PLANE, *PLANE)
    if task != "file":
        low, high = LINE
    else:  # the user's x range, with a margin
        low, high = float(points.min()), float(points.max())
    span = max(high - low, 1e-6)
    y_low, y_high = float(targets.min()), float(targets.max())
    y_span = max(y_high - y_low, 1e-6)
    return (
        low - 0.02 * span,
        high + 0.02 * span,
        y_low - 0.1 * y_span,
        y_high + 0.1 * y_span,
    )
