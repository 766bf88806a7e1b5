"""What the Training area and `tensorviz train` show about a run, computed once, as plain data:
the experiment (data, truth, least squares, loss surface), smoothing, explanations of a stopped
run, and the exports (loss history CSV, parameters .pt), written atomically."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

import numpy as np
import torch

from tensorviz.core.atomic_files import write_atomically, write_text_atomically
from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.training.data import (
    LossSurface,
    TrainingConfig,
    least_squares_note,
    loss_surface,
    surface_ranges,
)
from tensorviz.core.training.trainer import Divergence, Remedy, StepRecord, Trainer
from tensorviz.core.translation import _

CSV_FIELDS = ("epoch", "loss", "w", "b", "grad_w", "grad_b", "hand_grad_w", "hand_grad_b")
CSV_FIELDS += ("grad_norm",)
GRADIENT_TOLERANCE = 1e-3  # relative; float32 sums of 100 terms in a different order


@dataclass(frozen=True)
class ExperimentInfo:
    config: TrainingConfig
    source: str
    x: np.ndarray  # (n,) float32
    y: np.ndarray
    true_w: float | None
    true_b: float | None
    least_squares: tuple[float, float]
    initial: tuple[float, float]
    surface: LossSurface
    note: str = ""  # one sentence when the least-squares answer is not unique (constant x)


def describe_experiment(trainer: Trainer) -> ExperimentInfo:
    data = trainer.data
    points = [trainer.initial, trainer.least_squares]
    if data.true_w is not None:
        points.append((data.true_w, data.true_b))
    w_range, b_range = surface_ranges(points)
    return ExperimentInfo(
        config=trainer.config,
        source=data.source,
        x=data.x.flatten().numpy().copy(),
        y=data.y.flatten().numpy().copy(),
        true_w=data.true_w,
        true_b=data.true_b,
        least_squares=trainer.least_squares,
        initial=trainer.initial,
        surface=loss_surface(data.x, data.y, w_range, b_range),
        note=least_squares_note(data.x),
    )


def gradients_agree(record: StepRecord) -> bool:
    """autograd's .grad equals 2/n Σ (w x + b − y) x (and the b formula) to float tolerance."""
    return all(
        math.isclose(a, h, rel_tol=GRADIENT_TOLERANCE, abs_tol=1e-4)
        for a, h in ((record.grad_w, record.hand_grad_w), (record.grad_b, record.hand_grad_b))
    )


def extend_ema(last: float | None, values, alpha: float) -> list[float]:
    """The exponential moving average continued over `values` (last: the previous EMA value)."""
    smoothed = []
    for value in values:
        last = value if last is None or not math.isfinite(last) else last + alpha * (value - last)
        smoothed.append(last)
    return smoothed


USE_NO_GRAD_KEY = "use_no_grad"


def use_no_grad() -> Remedy:
    """The remedy of the 'forgot no_grad' pitfall, in the language in force."""
    return Remedy(
        USE_NO_GRAD_KEY,
        _("Update inside torch.no_grad()"),
        _(
            "with torch.no_grad(): w -= lr * w.grad — autograd stops recording, so the in-place "
            "change of the leaf is allowed and is not part of any graph."
        ),
    )


def explain_divergence(divergence: Divergence, record: StepRecord | None) -> ExplainedError:
    """The divergence explained. torch raised nothing (inf is a valid float), so there is no
    torch message: the values at the stop are part of the app's own explanation."""
    where = ""
    if record is not None:
        where = _(
            "At epoch {epoch}: loss = {loss:.4g}, w = {w:.4g}, b = {b:.4g}, w.grad = {grad:.4g}. "
        ).format(epoch=record.epoch, loss=record.loss, w=record.w, b=record.b, grad=record.grad_w)
    return ExplainedError(
        kind="divergence",
        title=diverged_title(divergence),
        torch_message="",
        explanation=where
        + _(
            "The learning rate is too large for this data: every update overshoots the minimum "
            "by more than it corrects, so the error and the gradients grow geometrically until "
            "float32 overflows to inf (and inf − inf gives NaN). Training stopped there."
        ),
        fix=_(
            "{remedies} — one click below applies a remedy and trains again (hover a button for "
            "why it works)."
        ).format(remedies=" · ".join(r.label for r in divergence.remedies)),
    )


def diverged_title(divergence: Divergence) -> str:
    return _("Training diverged: {quantity} became {value} at epoch {epoch}").format(
        quantity=divergence.quantity, value=divergence.value, epoch=divergence.epoch
    )


def explain_setup_problem(message: str, detail: str = "") -> ExplainedError:
    """Settings the trainer refused (TrainingConfigError's message names the setting)."""
    hint = setup_hint()
    return ExplainedError(
        "training_setup",
        _("These settings cannot be used"),
        "",
        message,
        f"{hint} {detail}" if detail else hint,
    )


def setup_hint() -> str:
    """What to change when settings cannot be used."""
    return _(
        "Change the setting it names; for your own data load a two-column CSV of numbers or a "
        ".pt holding {{'x': x, 'y': y}}."
    ).format()


TUTORIAL_EVERY = 100  # the tutorial prints every 100 epochs


def tutorial_line(record: StepRecord, epochs: int) -> str:
    """The line the tutorial's loop prints,
    print(f"Epoch [{epoch+1}/{epochs}], Loss: {loss.item():.4f}"): its loss is the one computed
    in that epoch, before the update, as the record's is."""
    return f"Epoch [{record.epoch}/{epochs}], Loss: {record.loss:.4f}"


def tutorial_table(records, epochs: int, every: int = TUTORIAL_EVERY) -> list[str]:
    """The tutorial's lines among `records` (every `every`-th epoch), in order."""
    return [tutorial_line(r, epochs) for r in records if r.epoch % every == 0]


def history_csv(history: list[StepRecord]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for record in history:
        writer.writerow([repr(getattr(record, name)) for name in CSV_FIELDS])
    return buffer.getvalue()


def write_history_csv(path, history: list[StepRecord]) -> None:
    write_text_atomically(path, history_csv(history))


def save_parameters(path, record: StepRecord, config: TrainingConfig) -> None:
    """torch.save({'w', 'b', 'epoch', 'config'}) atomically; w, b as float32 tensors of shape [1]
    (the record's floats are float32 values, so the tensors are exact)."""
    payload = {
        "w": torch.tensor([record.w], dtype=torch.float32),
        "b": torch.tensor([record.b], dtype=torch.float32),
        "epoch": record.epoch,
        "config": config.to_dict(),
    }
    write_atomically(path, lambda temporary: torch.save(payload, temporary))
