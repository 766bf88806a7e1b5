"""What a playground run is made of: its task, the input features, the activations, the losses,
and the checks that a TrainingConfig asking for them makes sense.

The tutorial's linear regression is the task "linear" (the default, trained as w, b by
trainer.Trainer); every other task trains a real nn.Sequential (playground_trainer). This module
imports nothing of the training package, so data.TrainingConfig can use it for validation, and
not torch either, so `tensorviz train --help` lists the choices at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

MAX_HIDDEN_LAYERS = 8
MAX_UNITS = 64
PLANE = (-6.0, 6.0)  # the 2-D tasks' points lie in PLANE × PLANE (as TensorFlow Playground's)
LINE = (-3.0, 3.0)  # the 1-D regression tasks' x range


@dataclass(frozen=True)
class Task:
    key: str
    label: str
    kind: str  # line (the tutorial's w, b) | classification | regression
    dims: int  # input coordinates per sample: 1 (x) or 2 (x, y)
    description: str
    noise: float = 0.0  # the task's default noise (std of the Gaussian jitter, in data units)


TASKS: dict[str, Task] = {
    task.key: task
    for task in (
        Task("linear", "Linear regression (tutorial)", "line", 1, "y = 2.5·x + 1.8 + noise"),
        Task("blobs", "Two Gaussian blobs", "classification", 2, "two clouds", 1.0),
        Task("circles", "Circles", "classification", 2, "a disc inside a ring", 0.3),
        Task("xor", "XOR", "classification", 2, "class = sign of x·y", 0.2),
        Task("spirals", "Two spirals", "classification", 2, "two interleaved arms", 0.2),
        Task("moons", "Moons", "classification", 2, "two interleaved half circles", 0.3),
        Task("sin", "sin 2x", "regression", 1, "y = sin(2x) + noise", 0.1),
        Task("abs", "|x|", "regression", 1, "y = |x| + noise", 0.1),
        Task("step", "Step", "regression", 1, "y = −1 for x < 0, +1 from 0 on, + noise", 0.05),
        Task("file", "Your own x, y", "regression", 1, "x, y from a CSV or .pt file"),
    )
}
NETWORK_TASKS = tuple(key for key, task in TASKS.items() if task.kind != "line")


@dataclass(frozen=True)
class Feature:
    label: str
    code: str  # the expression in the exported script; a = x[:, 0:1], b = x[:, 1:2]
    compute: Callable  # the same expression, run by the trainer on the same tensors
    dims: int  # the input coordinates it needs


FEATURES: dict[str, Feature] = {
    "x": Feature("x", "a", lambda a, b: a, 1),
    "y": Feature("y", "b", lambda a, b: b, 2),
    "x2": Feature("x²", "a * a", lambda a, b: a * a, 1),
    "y2": Feature("y²", "b * b", lambda a, b: b * b, 2),
    "xy": Feature("x·y", "a * b", lambda a, b: a * b, 2),
    "sinx": Feature("sin x", "torch.sin(a)", lambda a, b: a.sin(), 1),  # the same kernel
    "siny": Feature("sin y", "torch.sin(b)", lambda a, b: b.sin(), 2),
}

# key → (label, the nn class's name; None: no activation after the layer)
ACTIVATIONS: dict[str, tuple[str, str | None]] = {
    "relu": ("ReLU", "ReLU"),
    "tanh": ("Tanh", "Tanh"),
    "sigmoid": ("Sigmoid", "Sigmoid"),
    "gelu": ("GELU", "GELU"),
    "none": ("none (linear)", None),
}

# key → (label, the nn class's name)
LOSSES: dict[str, tuple[str, str]] = {
    "mse": ("MSE", "MSELoss"),
    "bce": ("BCE with logits", "BCEWithLogitsLoss"),
    "ce": ("Cross entropy", "CrossEntropyLoss"),
}
NETWORK_OPTIMIZERS = ("sgd", "adam")


def is_network_task(task: str) -> bool:
    return task in TASKS and TASKS[task].kind != "line"


def default_features(task: str) -> tuple[str, ...]:
    return ("x", "y") if TASKS[task].dims == 2 else ("x",)


def default_loss(task: str) -> str:
    return "bce" if TASKS[task].kind == "classification" else "mse"


def task_defaults(task: str) -> dict[str, object]:
    """The TrainingConfig fields a fresh run of a task starts from (those of the linear
    regression are TrainingConfig's own defaults)."""
    if not is_network_task(task):
        return {"task": task}
    two_d = TASKS[task].dims == 2
    return {
        "task": task,
        "n": 500 if two_d else 200,
        "noise": TASKS[task].noise,
        "lr": 0.03,
        "epochs": 300,
        "batch_size": 32,
        "update_style": "adam",
        "momentum": 0.0,
        "features": default_features(task),
        "loss": default_loss(task),
    }


def changes_for_task(config, task: str) -> dict[str, object]:
    """What switching `config` (a TrainingConfig) to another playground task changes, as
    TensorFlow Playground does it: the data (sample count, noise) becomes the new task's, the
    network and the training settings stay, except what the new task cannot use (features of
    a missing y, a class loss for a regression)."""
    defaults = task_defaults(task)
    changes: dict[str, object] = {"task": task, "n": defaults["n"], "noise": defaults["noise"]}
    if task != "file":
        changes.update(data_path=None, normalise_x=False)
    dims = TASKS[task].dims
    features = tuple(f for f in config.features if f in FEATURES and FEATURES[f].dims <= dims)
    changes["features"] = features or default_features(task)
    old_kind = TASKS[config.task].kind if config.task in TASKS else ""
    if TASKS[task].kind != old_kind or (TASKS[task].kind == "regression" and config.loss != "mse"):
        changes["loss"] = default_loss(task)
    return changes


def _count(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def network_problems(config) -> list[str]:
    """One plain sentence per thing wrong with the network settings of `config` (a
    TrainingConfig; nothing is checked for the linear regression, which has no network)."""
    if config.task not in TASKS:
        return [f"unknown task {config.task!r}; choose one of {', '.join(TASKS)}"]
    if not is_network_task(config.task):
        return []
    task = TASKS[config.task]
    layers, activations = tuple(config.hidden_layers), tuple(config.activations)
    unknown_features = [name for name in config.features if name not in FEATURES]
    problems = [
        (
            config.update_style not in NETWORK_OPTIMIZERS,
            "a network trains with optim.SGD or optim.Adam (the manual update belongs to the "
            "linear regression)",
        ),
        (
            not 1 <= len(layers) <= MAX_HIDDEN_LAYERS,
            f"a network needs 1 to {MAX_HIDDEN_LAYERS} hidden layers, not {len(layers)}",
        ),
        (
            any(not isinstance(u, int) or not 1 <= u <= MAX_UNITS for u in layers),
            f"each hidden layer has 1 to {MAX_UNITS} units",
        ),
        (
            len(activations) != len(layers),
            f"one activation per hidden layer: {_count(len(layers), 'layer')}, "
            f"{_count(len(activations), 'activation')}",
        ),
        (
            any(a not in ACTIVATIONS for a in activations),
            f"activations are {', '.join(ACTIVATIONS)}",
        ),
        (not config.features, "choose at least one input feature"),
        (
            bool(unknown_features),
            f"unknown feature {unknown_features[0] if unknown_features else ''!r}; "
            f"features are {', '.join(FEATURES)}",
        ),
        (len(set(config.features)) != len(config.features), "each feature can be used once"),
        (
            task.dims == 1 and any(FEATURES[f].dims == 2 for f in config.features if f in FEATURES),
            f"{task.label} has one input x: its features are x, x2 and sinx",
        ),
        (config.loss not in LOSSES, f"loss must be one of {', '.join(LOSSES)}"),
        (
            task.kind == "regression" and config.loss != "mse",
            f"{task.label} is a regression: its loss is mse (bce and ce need class labels)",
        ),
        (not 0 <= config.dropout < 1, "dropout must be in [0, 1)"),
        (config.l2 < 0, "L2 must be ≥ 0"),
        (not 0 <= config.test_fraction <= 0.9, "the test fraction must be in [0, 0.9]"),
        (config.task == "file" and not config.data_path, "the 'file' task needs a data file"),
        (
            config.task != "file" and config.data_path is not None,
            "a data file is trained by the 'file' task (or the linear regression)",
        ),
        (
            config.normalise_x and config.task != "file",
            "normalising x applies to your own data (the generated tasks have a fixed range)",
        ),
        (config.update_without_no_grad, "'update without no_grad' is a linear-regression pitfall"),
    ]
    return [message for failed, message in problems if failed]
