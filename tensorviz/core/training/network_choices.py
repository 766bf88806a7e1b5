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

from tensorviz.core.translation import N_, _, ngettext

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

    # label and description are kept in English (N_); these give them in the language in force.
    @property
    def shown_label(self) -> str:
        return _(self.label)

    @property
    def shown_description(self) -> str:
        return _(self.description)


TASKS: dict[str, Task] = {
    task.key: task
    for task in (
        Task(
            "linear", N_("Linear regression (tutorial)"), "line", 1, N_("y = 2.5·x + 1.8 + noise")
        ),
        Task("blobs", N_("Two Gaussian blobs"), "classification", 2, N_("two clouds"), 1.0),
        Task("circles", N_("Circles"), "classification", 2, N_("a disc inside a ring"), 0.3),
        Task("xor", "XOR", "classification", 2, N_("class = sign of x·y"), 0.2),
        Task("spirals", N_("Two spirals"), "classification", 2, N_("two interleaved arms"), 0.2),
        Task("moons", N_("Moons"), "classification", 2, N_("two interleaved half circles"), 0.3),
        Task("sin", "sin 2x", "regression", 1, N_("y = sin(2x) + noise"), 0.1),
        Task("abs", "|x|", "regression", 1, N_("y = |x| + noise"), 0.1),
        Task(
            "step", N_("Step"), "regression", 1, N_("y = −1 for x < 0, +1 from 0 on, + noise"), 0.05
        ),
        Task("file", N_("Your own x, y"), "regression", 1, N_("x, y from a CSV or .pt file")),
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

# key → (label, the nn class's name; None: no activation after the layer); labels marked N_
# are shown through _() (the others are torch's class names)
ACTIVATIONS: dict[str, tuple[str, str | None]] = {
    "relu": ("ReLU", "ReLU"),
    "tanh": ("Tanh", "Tanh"),
    "sigmoid": ("Sigmoid", "Sigmoid"),
    "gelu": ("GELU", "GELU"),
    "none": (N_("none (linear)"), None),
}

# key → (label, the nn class's name)
LOSSES: dict[str, tuple[str, str]] = {
    "mse": ("MSE", "MSELoss"),
    "bce": (N_("BCE with logits"), "BCEWithLogitsLoss"),
    "ce": (N_("Cross entropy"), "CrossEntropyLoss"),
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


def network_problems(config) -> list[str]:
    """One plain sentence per thing wrong with the network settings of `config` (a
    TrainingConfig; nothing is checked for the linear regression, which has no network), in the
    language in force."""
    if config.task not in TASKS:
        return [
            _("unknown task {task!r}; choose one of {tasks}").format(
                task=config.task, tasks=", ".join(TASKS)
            )
        ]
    if not is_network_task(config.task):
        return []
    task = TASKS[config.task]
    layers, activations = tuple(config.hidden_layers), tuple(config.activations)
    unknown_features = [name for name in config.features if name not in FEATURES]
    problems = [
        (
            config.update_style not in NETWORK_OPTIMIZERS,
            lambda: _(
                "a network trains with optim.SGD or optim.Adam (the manual update belongs to the "
                "linear regression)"
            ),
        ),
        (
            not 1 <= len(layers) <= MAX_HIDDEN_LAYERS,
            lambda: _("a network needs 1 to {most} hidden layers, not {count}").format(
                most=MAX_HIDDEN_LAYERS, count=len(layers)
            ),
        ),
        (
            any(not isinstance(u, int) or not 1 <= u <= MAX_UNITS for u in layers),
            lambda: _("each hidden layer has 1 to {most} units").format(most=MAX_UNITS),
        ),
        (
            len(activations) != len(layers),
            lambda: _("one activation per hidden layer: {layers}, {activations}").format(
                layers=ngettext("{n} layer", "{n} layers", len(layers)).format(n=len(layers)),
                activations=ngettext("{n} activation", "{n} activations", len(activations)).format(
                    n=len(activations)
                ),
            ),
        ),
        (
            any(a not in ACTIVATIONS for a in activations),
            lambda: _("activations are {names}").format(names=", ".join(ACTIVATIONS)),
        ),
        (not config.features, lambda: _("choose at least one input feature")),
        (
            bool(unknown_features),
            lambda: _("unknown feature {name!r}; features are {names}").format(
                name=unknown_features[0], names=", ".join(FEATURES)
            ),
        ),
        (
            len(set(config.features)) != len(config.features),
            lambda: _("each feature can be used once"),
        ),
        (
            task.dims == 1 and any(FEATURES[f].dims == 2 for f in config.features if f in FEATURES),
            lambda: _("{task} has one input x: its features are x, x2 and sinx").format(
                task=task.shown_label
            ),
        ),
        (
            config.loss not in LOSSES,
            lambda: _("loss must be one of {names}").format(names=", ".join(LOSSES)),
        ),
        (
            task.kind == "regression" and config.loss != "mse",
            lambda: _(
                "{task} is a regression: its loss is mse (bce and ce need class labels)"
            ).format(task=task.shown_label),
        ),
        (not 0 <= config.dropout < 1, lambda: _("dropout must be in [0, 1)")),
        (config.l2 < 0, lambda: _("L2 must be ≥ 0")),
        (
            not 0 <= config.test_fraction <= 0.9,
            lambda: _("the test fraction must be in [0, 0.9]"),
        ),
        (
            config.task == "file" and not config.data_path,
            lambda: _("the 'file' task needs a data file"),
        ),
        (
            config.task != "file" and config.data_path is not None,
            lambda: _("a data file is trained by the 'file' task (or the linear regression)"),
        ),
        (
            config.normalise_x and config.task != "file",
            lambda: _(
                "normalising x applies to your own data (the generated tasks have a fixed range)"
            ),
        ),
        (
            config.update_without_no_grad,
            lambda: _("'update without no_grad' is a linear-regression pitfall"),
        ),
    ]
    return [message() for failed, message in problems if failed]
