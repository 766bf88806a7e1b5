"""What to do when training diverges, computed from the data so that every remedy offered works.

The MSE of y ≈ w·x + b is a quadratic in (w, b) with Hessian H = 2/n · XᵀX, X = [x, 1]. Gradient
descent with step lr contracts along every eigen-direction of H iff lr < 2 / λ_max(H); heavy-ball
momentum β widens that to 2 (1 + β) / λ_max (and a forgotten zero_grad is momentum β = 1: it stays
bounded but never settles). Mini-batches see the Hessian of their own samples, whose λ_max is at
most the largest single sample's 2 (x_i² + 1). The lr suggested is a round number at least
SAFETY times below that bound, so the suggestion converges rather than diverging again later.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.translation import _

SAFETY = 2.0  # the suggested lr is at least this factor below the stability bound
NORMALISED_MARGIN = 0.9  # normalising x is offered only when lr is this far inside its bound


@dataclass(frozen=True)
class Remedy:
    key: str  # lower_lr | normalise_x | clip_grad_norm | zero_grad
    label: str
    explanation: str
    changes: tuple[tuple[str, object], ...] = ()  # the TrainingConfig fields it sets


def curvature(x: torch.Tensor, batch_size: int | None, weight_decay: float = 0.0) -> float:
    """The largest curvature λ_max the updates see: of 2/n·XᵀX for the full batch, else the
    largest single sample's 2 (x_i² + 1), which bounds that of every mini-batch mean."""
    xs = x.detach().double().flatten().cpu()
    if batch_size is None or batch_size >= xs.numel():
        a, m = float((xs * xs).mean()), float(xs.mean())
        # λ_max of [[a, m], [m, 1]] (the mean of [x, 1]ᵀ[x, 1]), in closed form.
        top = (a + 1) / 2 + math.hypot((a - 1) / 2, m)
    else:
        top = float((xs * xs).max()) + 1.0
    return 2.0 * top + weight_decay


def stable_lr_bound(config: TrainingConfig, x: torch.Tensor) -> float:
    """The largest lr for which plain or momentum gradient descent does not blow up on x."""
    beta = 1.0 if config.forget_zero_grad else config.momentum
    return 2.0 * (1.0 + beta) / curvature(x, config.batch_size, config.weight_decay)


def round_down(value: float) -> float:
    """The largest 1, 2 or 5 × 10^k not above value (a learning rate a person would type)."""
    power = 10.0 ** math.floor(math.log10(value))
    for step in (5.0, 2.0, 1.0):
        if step * power <= value * (1 + 1e-12):
            return float(f"{step * power:.12g}")
    return float(f"{power:.12g}")


def suggested_lr(config: TrainingConfig, x: torch.Tensor) -> float:
    """A round lr that converges on x: SAFETY below the stability bound (Adam, whose steps do
    not scale with the gradient, gets a tenth of its lr)."""
    if config.update_style == "adam":
        return round_down(config.lr / 10)
    return round_down(min(stable_lr_bound(config, x) / SAFETY, config.lr / 2))


def normalised(x: torch.Tensor) -> torch.Tensor:
    """x standardised as make_data does it (mean 0, std 1)."""
    return (x - x.mean()) / x.std()


def zero_grad_remedy(call: str) -> Remedy:
    """Zero the gradients again; call: the line that does it."""
    return Remedy(
        "zero_grad",
        _("Zero the gradients each step"),
        _(
            ".grad keeps the sum of every past gradient, so each update repeats all earlier "
            "ones; {call} makes it this step's alone."
        ).format(call=call),
        (("forget_zero_grad", False),),
    )


def clip_remedy(effect: str) -> Remedy:
    """Clip the gradient norm to 1; effect: what it rescales and why that helps."""
    return Remedy(
        "clip_grad_norm",
        _("Clip: clip_grad_norm_(max_norm=1)"),
        _("torch.nn.utils.clip_grad_norm_ rescales {effect}").format(effect=effect),
        (("clip_grad_norm", 1.0),),
    )


def remedies_for(config: TrainingConfig, x: torch.Tensor) -> tuple[Remedy, ...]:
    """The remedies that make this diverged run finish, for its training inputs x."""
    lr = suggested_lr(config, x)
    remedies = [
        Remedy(
            "lower_lr",
            _("Lower lr to {lr:g}").format(lr=lr),
            _(
                "Each step overshoots the minimum by more than it corrects, so the error grows "
                "geometrically. For this data steps are stable below lr ≈ {bound:.3g} (2 / the "
                "loss's largest curvature); {lr:g} is safely below that."
            ).format(bound=stable_lr_bound(config, x), lr=lr),
            (("lr", lr),),
        )
    ]
    if config.forget_zero_grad:
        remedies.append(zero_grad_remedy("w.grad.zero_() (or optimizer.zero_grad())"))
    if not config.normalise_x and x.std() > 0 and config.update_style != "adam":
        if config.lr < NORMALISED_MARGIN * stable_lr_bound(config, normalised(x)):
            remedies.append(
                Remedy(
                    "normalise_x",
                    _("Normalise x"),
                    _(
                        "x is far from mean 0, std 1, so the loss is steep along w and flat "
                        "along b; standardised inputs make it round, and this lr is stable on them."
                    ),
                    (("normalise_x", True),),
                )
            )
    if config.clip_grad_norm is None:
        remedies.append(
            clip_remedy(
                _(
                    "(w.grad, b.grad) so their total norm is at most max_norm: no single step is "
                    "longer than lr, so nothing overflows (with too large an lr the parameters "
                    "still circle the minimum instead of settling)."
                )
            )
        )
    return tuple(remedies)


def apply_remedy(config: TrainingConfig, remedy: Remedy | str, x: torch.Tensor | None = None):
    """The configuration with the remedy applied. A key alone is looked up among the remedies
    for x (made from the configuration's own data when not given)."""
    if isinstance(remedy, str):
        if x is None:
            from tensorviz.core.training.data import make_data

            x = make_data(config).x
        found = {r.key: r for r in remedies_for(config, x)}
        if remedy not in found:
            raise ValueError(_("unknown remedy {key!r}").format(key=remedy))
        remedy = found[remedy]
    return config.with_changes(**dict(remedy.changes))


def network_remedies(config: TrainingConfig) -> tuple[Remedy, ...]:
    """The remedies for a playground network that diverged. A network's loss has no closed-form
    curvature, so the lr offered is a tenth of the one that failed (a rounded number)."""
    lr = round_down(config.lr / 10)
    remedies = [
        Remedy(
            "lower_lr",
            _("Lower lr to {lr:g}").format(lr=lr),
            _(
                "Each update overshoots by more than it corrects, so the loss and the gradients "
                "grow until float32 overflows; a ten times smaller step stays inside the valley."
            ),
            (("lr", lr),),
        )
    ]
    if config.forget_zero_grad:
        remedies.append(zero_grad_remedy("optimizer.zero_grad()"))
    if config.clip_grad_norm is None:
        remedies.append(
            clip_remedy(
                _(
                    "all gradients together so their total norm is at most max_norm: no single "
                    "update is longer than lr allows."
                )
            )
        )
    return tuple(remedies)
