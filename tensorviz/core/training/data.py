"""The reference linear-regression experiment: its configuration, its data and its exact answers.

Data is made in exactly the order a learner's plain script makes it, so a run here and a run of
that script give the same numbers bit for bit::

    np.random.seed(seed)
    x = np.random.rand(n, 1) * 10
    y = slope * x + intercept + np.random.randn(n, 1) * noise
    x, y = torch.from_numpy(x).float(), torch.from_numpy(y).float()

or the user's own x, y from a CSV or a .pt file. The closed-form least-squares answer and the loss
surface over (w, b) are computed here too, so the UI and the CLI draw the same numbers.
"""

from __future__ import annotations

import csv
import os
import pickle
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import numpy as np
import torch

from tensorviz.core.training.network_choices import network_problems
from tensorviz.core.translation import _

UPDATE_STYLES = ("manual", "sgd", "adam")


class TrainingConfigError(ValueError):
    """A configuration or data file that cannot be trained on; the message is one plain line."""


@dataclass(frozen=True)
class TrainingConfig:
    seed: int = 42
    n: int = 100
    slope: float = 2.5
    intercept: float = 1.8
    noise: float = 2.0
    lr: float = 0.01
    epochs: int = 500
    batch_size: int | None = None  # None: full batch, one update per epoch
    update_style: str = "manual"  # manual | sgd | adam
    momentum: float = 0.0
    weight_decay: float = 0.0
    device: str = "cpu"
    normalise_x: bool = False  # standardise x to mean 0, std 1 before training
    forget_zero_grad: bool = False
    update_without_no_grad: bool = False
    clip_grad_norm: float | None = None  # max norm for torch.nn.utils.clip_grad_norm_
    data_path: str | None = None  # the user's own x, y (.csv or .pt) instead of the generated data
    # The task (network_choices.TASKS): "linear" is the tutorial's regression above; every other
    # task trains an nn.Sequential shaped by the fields below (ignored by the linear regression).
    task: str = "linear"
    hidden_layers: tuple[int, ...] = (8, 8)  # units of each hidden layer
    activations: tuple[str, ...] = ("tanh", "tanh")  # one per hidden layer
    features: tuple[str, ...] = ("x", "y")  # the network's input columns
    loss: str = "mse"  # mse | bce (BCEWithLogitsLoss) | ce (CrossEntropyLoss)
    dropout: float = 0.0  # nn.Dropout(p) after each hidden layer's activation
    l2: float = 0.0  # l2 · Σ ‖W‖² added to the loss (weights, not biases)
    test_fraction: float = 0.3  # held out of training, for the test loss

    def validate(self) -> None:
        """Raise TrainingConfigError naming the first bad setting."""
        problems = [
            (self.n < 2, lambda: _("n must be at least 2")),
            (self.epochs < 1, lambda: _("epochs must be at least 1")),
            (not self.lr > 0, lambda: _("lr must be a positive number")),
            (
                self.batch_size is not None and self.batch_size < 1,
                lambda: _("batch size must be ≥ 1"),
            ),
            (
                self.update_style not in UPDATE_STYLES,
                lambda: _("optimizer must be one of {styles}").format(styles=UPDATE_STYLES),
            ),
            (not 0 <= self.momentum < 1, lambda: _("momentum must be in [0, 1)")),
            (self.weight_decay < 0, lambda: _("weight decay must be ≥ 0")),
            (self.noise < 0, lambda: _("noise must be ≥ 0")),
            (
                self.clip_grad_norm is not None and not self.clip_grad_norm > 0,
                lambda: _("clip must be > 0"),
            ),
            (
                self.update_style == "manual" and (self.momentum or self.weight_decay),
                lambda: _("momentum and weight decay need the sgd optimizer (adam: weight decay)"),
            ),
            (
                self.update_style == "adam" and self.momentum,
                lambda: _("adam has no momentum setting"),
            ),
            (
                self.update_without_no_grad and self.update_style != "manual",
                lambda: _("'update without no_grad' is a pitfall of the manual update only"),
            ),
        ]
        for failed, message in problems:
            if failed:
                raise TrainingConfigError(message())
        for message in network_problems(self):
            raise TrainingConfigError(message)
        try:
            torch.device(self.device)
        except RuntimeError as error:
            raise TrainingConfigError(
                _("unknown device {device!r}").format(device=self.device)
            ) from error

    def with_changes(self, **changes) -> TrainingConfig:
        return replace(self, **changes)

    def to_dict(self) -> dict:
        """Every field as plain JSON-able values (tuples become lists)."""
        return {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in asdict(self).items()
        }

    @classmethod
    def from_dict(cls, data: dict) -> TrainingConfig:
        """The configuration `to_dict` wrote (missing fields keep their defaults, so older
        dictionaries still load). Raises TrainingConfigError naming a bad or unknown field; the
        values are not validated beyond their types (call validate())."""
        if not isinstance(data, dict):
            raise TrainingConfigError(_("a training configuration is a dict of settings"))
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise TrainingConfigError(_("unknown training setting {key!r}").format(key=unknown[0]))
        return cls(**{key: _typed(key, value) for key, value in data.items()})


_OPTIONAL = {"batch_size": int, "clip_grad_norm": float, "data_path": str}
_SEQUENCES = {"hidden_layers": int, "activations": str, "features": str}


def _typed(key: str, value):
    """value as the type of TrainingConfig's field `key` (an int is a float too; bool is not a
    number); TrainingConfigError if it is not one."""
    if key in _SEQUENCES:
        if not isinstance(value, list | tuple):
            raise TrainingConfigError(_("training setting {key!r} must be a list").format(key=key))
        return tuple(_typed_value(key, item, _SEQUENCES[key]) for item in value)
    if key in _OPTIONAL:
        return None if value is None else _typed_value(key, value, _OPTIONAL[key])
    return _typed_value(key, value, type(getattr(TrainingConfig, key)))


def _typed_value(key: str, value, kind: type):
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if kind is float and number:
        return float(value)
    if kind is int and number and float(value).is_integer():
        return int(value)
    if isinstance(value, kind) and (kind is not int or not isinstance(value, bool)):
        return value
    raise TrainingConfigError(
        _("training setting {key!r} must be {kind}, not {value!r}").format(
            key=key, kind=kind.__name__, value=value
        )
    )


@dataclass(frozen=True)
class TrainingData:
    """x and y as float32 column tensors on the CPU, plus what is known about the truth."""

    x: torch.Tensor
    y: torch.Tensor
    true_w: float | None  # None for the user's own data
    true_b: float | None
    source: str

    @property
    def n(self) -> int:
        return int(self.x.shape[0])


def make_data(config: TrainingConfig) -> TrainingData:
    """The reference data (or the user's file), normalised if the config asks for it."""
    if config.data_path:
        x_np, y_np = load_xy(config.data_path)
        x, y = torch.from_numpy(x_np).float(), torch.from_numpy(y_np).float()
        if not (torch.isfinite(x).all() and torch.isfinite(y).all()):  # finite in float64 only
            raise TrainingConfigError(
                _(
                    "{file}: values beyond ±3.4e38 overflow float32, the dtype training uses; "
                    "rescale x and y"
                ).format(file=Path(config.data_path).name)
            )
        true_w = true_b = None
        source = Path(config.data_path).name
    else:
        np.random.seed(config.seed)
        x_np = np.random.rand(config.n, 1) * 10
        y_np = config.slope * x_np + config.intercept + np.random.randn(config.n, 1) * config.noise
        x, y = torch.from_numpy(x_np).float(), torch.from_numpy(y_np).float()
        true_w, true_b = config.slope, config.intercept
        source = _("y = {slope:g}·x + {intercept:g} + noise·{noise:g}").format(
            slope=config.slope, intercept=config.intercept, noise=config.noise
        )
    if config.normalise_x:
        mean, std = x.mean(), x.std()
        x = (x - mean) / std
        if true_w is not None:  # the same line, written in the normalised coordinate
            true_w, true_b = true_w * float(std), true_b + true_w * float(mean)
        source += _(" (x normalised)")
    return TrainingData(x, y, true_w, true_b, source)


def load_xy(path: str | os.PathLike) -> tuple[np.ndarray, np.ndarray]:
    """x, y as (n, 1) float64 arrays from a two-column CSV (header optional) or a .pt file holding
    {'x': ..., 'y': ...}, a pair (x, y) or an (n, 2) tensor. Raises TrainingConfigError."""
    path = Path(path)
    try:
        if path.suffix.lower() in (".pt", ".pth"):
            columns = _xy_from_object(torch.load(path, weights_only=True, map_location="cpu"))
        else:
            columns = _xy_from_csv(path)
        x, y = (np.asarray(c, dtype=np.float64).reshape(-1, 1) for c in columns)
    except TrainingConfigError as error:
        if path.name in str(error):
            raise
        raise TrainingConfigError(f"{path.name}: {error}") from None
    except OSError as error:
        raise TrainingConfigError(
            _("cannot read {file}: {reason}").format(file=path.name, reason=error.strerror or error)
        ) from None
    except UnicodeDecodeError:
        raise TrainingConfigError(
            _("{file} is not a text CSV of x, y numbers").format(file=path.name)
        ) from None
    except pickle.UnpicklingError:
        raise TrainingConfigError(
            _(
                "{file} is not a file torch.save wrote with plain tensors "
                "(torch.load(weights_only=True) refused it)"
            ).format(file=path.name)
        ) from None
    except Exception as error:  # noqa: BLE001 — unpickling runs arbitrary reducers; any can fail
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        if len(first) > 160:
            first = first[:157] + "…"
        raise TrainingConfigError(
            _("cannot read {file}: {reason}").format(file=path.name, reason=first)
        ) from None
    if x.shape != y.shape or x.shape[0] < 2:
        raise TrainingConfigError(
            _("{file}: need x and y of equal length ≥ 2").format(file=path.name)
        )
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise TrainingConfigError(
            _("{file}: x and y must be finite numbers").format(file=path.name)
        )
    return x, y


def _xy_from_object(obj) -> tuple:
    if isinstance(obj, dict) and "x" in obj and "y" in obj:
        return _column(obj["x"], "x"), _column(obj["y"], "y")
    if isinstance(obj, list | tuple) and len(obj) == 2:
        return _column(obj[0], "x"), _column(obj[1], "y")
    if isinstance(obj, torch.Tensor) and obj.dim() == 2 and obj.shape[1] == 2:
        values = _column(obj, _("the (n, 2) tensor")).reshape(-1, 2)
        return values[:, 0], values[:, 1]
    raise TrainingConfigError(
        _("a .pt file must hold {{'x': x, 'y': y}}, a pair (x, y) or an (n, 2) tensor").format()
    )


def _column(value, name: str) -> np.ndarray:
    """A tensor (or a list of numbers) as real float64 values; anything else is refused."""
    try:
        tensor = torch.as_tensor(value).detach().cpu()
    except (TypeError, ValueError, RuntimeError):
        raise TrainingConfigError(
            _("{name} must be numbers, not {kind}").format(name=name, kind=type(value).__name__)
        ) from None
    if tensor.is_complex() or tensor.dtype == torch.bool or tensor.is_sparse:
        raise TrainingConfigError(
            _("{name} must be real numbers, not {dtype}").format(name=name, dtype=tensor.dtype)
        )
    return tensor.double().numpy()


def _xy_from_csv(path: Path) -> tuple:
    rows = []
    with path.open(newline="", encoding="utf-8") as handle:
        for number, row in enumerate(csv.reader(handle)):
            if not row or row[0].lstrip().startswith("#"):
                continue
            try:
                rows.append((float(row[0]), float(row[1])))
            except (ValueError, IndexError):
                if number == 0 and not rows:
                    continue  # a header line
                raise TrainingConfigError(
                    _("{file} line {line}: expected two numbers x, y").format(
                        file=path.name, line=number + 1
                    )
                ) from None
    if not rows:
        raise TrainingConfigError(_("{file}: no x, y rows found").format(file=path.name))
    values = np.array(rows)
    return values[:, 0], values[:, 1]


def least_squares(x: torch.Tensor, y: torch.Tensor) -> tuple[float, float]:
    """The minimiser of mean((w·x + b − y)²), in float64 from the float32 data, by a robust
    solve (torch.linalg.lstsq with the SVD driver): when x is constant every w, b with
    w·x + b = mean(y) fits equally well and this is the one of least norm (see
    least_squares_note)."""
    xs, ys = x.double().flatten().cpu(), y.double().flatten().cpu()
    design = torch.stack([xs, torch.ones_like(xs)], dim=1)
    solution = torch.linalg.lstsq(design, ys[:, None], driver="gelsd").solution.flatten()
    return float(solution[0]), float(solution[1])


def least_squares_note(x: torch.Tensor) -> str:
    """One sentence when least squares has no unique answer on x, else ''."""
    xs = x.double().flatten()
    if float(xs.max() - xs.min()) <= 1e-12 * max(1.0, float(xs.abs().max())):
        return _(
            "x is constant: w is not identifiable, every w, b with w·x + b = mean(y) fits "
            "equally well; the least-squares values shown are the ones of least norm"
        )
    return ""


@dataclass(frozen=True)
class LossSurface:
    w_values: np.ndarray  # (nw,)
    b_values: np.ndarray  # (nb,)
    loss: np.ndarray  # (nw, nb): loss[i, j] at w_values[i], b_values[j]


def loss_surface(
    x: torch.Tensor, y: torch.Tensor, w_range: tuple[float, float], b_range, steps: int = 90
) -> LossSurface:
    """MSE over a (w, b) grid, with torch: the expanded quadratic, exact and O(grid + n)."""
    xs, ys = x.double().flatten(), y.double().flatten()
    w = torch.linspace(*w_range, steps, dtype=torch.float64)[:, None]
    b = torch.linspace(*b_range, steps, dtype=torch.float64)[None, :]
    mx, my = xs.mean(), ys.mean()
    mxx, mxy, myy = (xs * xs).mean(), (xs * ys).mean(), (ys * ys).mean()
    loss = w * w * mxx + 2 * w * b * mx + b * b - 2 * w * mxy - 2 * b * my + myy
    return LossSurface(w.flatten().numpy(), b.flatten().numpy(), loss.clamp_min(0).numpy())


def surface_ranges(points: list[tuple[float, float]]) -> tuple[tuple, tuple]:
    """(w_range, b_range) covering the given (w, b) points with a margin."""
    ws, bs = [p[0] for p in points], [p[1] for p in points]
    w_span = max(max(ws) - min(ws), 1.0)
    b_span = max(max(bs) - min(bs), 1.0)
    return (
        (min(ws) - 0.35 * w_span, max(ws) + 0.35 * w_span),
        (min(bs) - 0.35 * b_span, max(bs) + 0.35 * b_span),
    )
