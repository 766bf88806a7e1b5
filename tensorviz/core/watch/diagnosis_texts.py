"""The words of the diagnoses (English source, Chinese in the "watch" catalogue): a one-line
title, the figures, and the remedy. Filled with .format after translation; numbers and names are
ours, never translated."""

from __future__ import annotations

import math

from tensorviz.core.translation import _, ngettext

SHOWN_NAMES = 3


def number(value: float) -> str:
    if value is None or not math.isfinite(value):
        return str(value)
    return f"{value:.2g}"


def layer_ranges(indices: list[int]) -> str:
    """[0, 1, 2, 3, 5, 7, 8] → "0–3, 5, 7–8"."""
    parts: list[str] = []
    ordered = sorted(set(indices))
    start = previous = None
    for index in [*ordered, None]:
        if index is not None and previous is not None and index == previous + 1:
            previous = index
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}–{previous}")
        start = previous = index
    return ", ".join(parts)


def listed(names) -> str:
    names = list(names)
    shown = ", ".join(names[:SHOWN_NAMES])
    if len(names) > SHOWN_NAMES:
        shown = _("{names} and {count} more").format(names=shown, count=len(names) - SHOWN_NAMES)
    return shown


def _layers_phrase(indices: list[int]) -> str:
    return ngettext("layer {layers}", "layers {layers}", len(indices)).format(
        layers=layer_ranges(indices)
    )


def vanishing_title(indices: list[int], step: int) -> str:
    return _("vanishing gradients in {layers} from step {step}").format(
        layers=_layers_phrase(indices), step=step
    )


def vanishing_detail(layer, rms: float, reference, reference_rms: float, step: int) -> str:
    return _(
        "at step {step} the gradient of layer {index} ({module}) is {rms} per element (root "
        "mean square), {orders} orders of magnitude below layer {reference_index}'s "
        "({reference}) {reference_rms}; the first layers barely learn."
    ).format(step=step, index=layer.index, module=layer.module, rms=number(rms),
             reference_index=reference.index, reference=reference.module,
             reference_rms=number(reference_rms),
             orders=f"{math.log10(reference_rms / rms):.1f}")  # fmt: skip


def vanishing_remedy() -> str:
    return _(
        "Use ReLU or GELU instead of sigmoid/tanh, add normalisation (BatchNorm, LayerNorm) or "
        "residual connections, and initialise for the activation (Kaiming for ReLU, Xavier for "
        "tanh)."
    )


def exploding_title(indices: list[int], step: int) -> str:
    return _("exploding gradients in {layers} from step {step}").format(
        layers=_layers_phrase(indices), step=step
    )


def exploding_detail(total: float, start_level, ratio, step: int) -> str:
    parts = [
        _("at step {step} the gradient norm is {total}").format(step=step, total=number(total))
    ]
    if start_level is not None:
        parts.append(
            _("{growth} × where it started ({start})").format(
                growth=number(total / start_level), start=number(start_level)
            )
        )
    if ratio is not None:
        parts.append(
            _("the largest layer gradient is {ratio} × that layer's weights").format(
                ratio=number(ratio)
            )
        )
    return "; ".join(parts)


def exploding_remedy() -> str:
    return _(
        "Clip the gradient norm (torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)), "
        "lower the learning rate or warm it up, and check the initialisation scale (weights "
        "too large) and the loss's scale."
    )


def non_finite_title(first: dict | None, step: int) -> str:
    if first is None:
        return _("the loss became non-finite (NaN or inf) at step {step}").format(step=step)
    what = {
        "weight": _("the weight {name}"),
        "activation": _("the output of {name}"),
        "grad": _("the gradient of {name}"),
    }.get(first["what"], "{name}")
    return _("first non-finite value (NaN or inf) at step {step}: {what}").format(
        step=step, what=what.format(name=first["name"])
    )


def non_finite_detail(entries: list[dict], loss: float) -> str:
    parts = []
    for what, label in (("weight", _("weights")), ("activation", _("module outputs")),
                        ("grad", _("gradients"))):  # fmt: skip
        names = [e["name"] for e in entries if e["what"] == what]
        if names:
            parts.append(_("{label}: {names}").format(label=label, names=listed(names)))
    parts.append(_("loss: {loss}").format(loss=number(loss)))
    return "; ".join(parts)


def non_finite_remedy(first: dict | None) -> str:
    if first is not None and first["what"] == "activation":
        return _(
            "Look at that module's inputs: a NaN in the data, a division by zero, log or sqrt "
            "of a value ≤ 0, or an overflow (fp16); guard it (torch.clamp, an eps) or clean "
            "the batch."
        )
    if first is not None and first["what"] == "weight":
        return _(
            "The weights were already broken by an earlier update: lower the learning rate, "
            "clip the gradient norm, and in fp16 use a GradScaler."
        )
    return _(
        "Guard the loss (log of 0, division by 0: add an eps or use the fused loss, such as "
        "cross_entropy on logits), clip the gradient norm, and lower the learning rate; "
        "torch.autograd.detect_anomaly() names the operation."
    )


def _modules_phrase(names) -> str:
    return ngettext("module {names}", "modules {names}", len(names)).format(names=listed(names))


def dead_title(names, step: int) -> str:
    return _("dead ReLU units in {modules} from step {step}").format(
        modules=_modules_phrase(names), step=step
    )


def dead_detail(names, values, bar: float) -> str:
    shown = ", ".join(f"{n} {v:.0%}" for n, v in list(zip(names, values, strict=True))[:3])
    return _("outputs that are exactly 0 (at least {bar:.0%} counts as dead): {shown}").format(
        bar=bar, shown=shown
    )


def dead_remedy() -> str:
    return _(
        "Lower the learning rate, initialise with Kaiming and biases at 0 (not negative), or use "
        "LeakyReLU / GELU, which keep a gradient below 0; normalise the layer's input."
    )


def saturated_title(names, step: int) -> str:
    return _("saturated units in {modules} from step {step}").format(
        modules=_modules_phrase(names), step=step
    )


def saturated_detail(names, values, bar: float) -> str:
    shown = ", ".join(f"{n} {v:.0%}" for n, v in list(zip(names, values, strict=True))[:3])
    return _(
        "outputs in the flat tails of tanh/sigmoid, where the gradient is below 0.02 (at least "
        "{bar:.0%} counts as saturated): {shown}"
    ).format(bar=bar, shown=shown)


def saturated_remedy() -> str:
    return _(
        "Scale the initial weights down (Xavier/Glorot for tanh, or multiply by a gain below 1), "
        "normalise the layer's input (BatchNorm, LayerNorm), or use ReLU/GELU."
    )


def update_title(kind: str, names, median: float, step: int) -> str:
    if kind == "update_ratio_high":
        text = _("update ratio {ratio} far above 1e-3 in {names} from step {step}")
    else:
        text = _("update ratio {ratio} far below 1e-3 in {names} from step {step}")
    return text.format(ratio=number(median), names=listed(names), step=step)


def update_detail(names, values, bar: float) -> str:
    shown = ", ".join(f"{n} {number(v)}" for n, v in list(zip(names, values, strict=True))[:3])
    return _("‖Δw‖/‖w‖ per step (healthy near 1e-3; this finding's bar: {bar}): {shown}").format(
        bar=number(bar), shown=shown
    )


def update_remedy(kind: str) -> str:
    if kind == "update_ratio_high":
        return _(
            "Lower the learning rate (or warm it up over the first steps); each step changes "
            "the weights by a large part of themselves, so training is unstable."
        )
    return _(
        "Raise the learning rate (or check the scheduler, weight decay and that the optimizer "
        "holds these parameters); the weights barely move, so training is very slow."
    )
