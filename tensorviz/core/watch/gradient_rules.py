"""The rules on gradients and updates: vanishing, exploding, update ratio far from 1e-3.

Gradients are judged per layer — a module's parameters taken together, so a weight and its bias
speak as one — from the per-parameter norms of each step (series_windows.group_norms).
"""

from __future__ import annotations

import numpy as np

from tensorviz.core.watch import diagnosis_texts as texts
from tensorviz.core.watch.diagnosis_rules import Rule, RuleState
from tensorviz.core.watch.diagnosis_thresholds import (
    EARLY_STEPS,
    EXPLODING_GRAD_TO_WEIGHT,
    EXPLODING_GROWTH,
    EXPLODING_WEIGHT_KEPT,
    UPDATE_RATIO_HIGH,
    UPDATE_RATIO_LOW,
    VANISHING_MIN_LAYERS,
    VANISHING_RATIO,
    WINDOW,
)
from tensorviz.core.watch.series_windows import HeldTracker, earliest


def _layer_signature(layers) -> tuple:
    return tuple((layer.module, tuple(layer.columns.tolist())) for layer in layers)


class VanishingRule(Rule):
    """Layers whose gradient RMS is ≤ VANISHING_RATIO of the largest RMS of the layers after."""

    name = "vanishing_gradients"

    @staticmethod
    def _layers(view):
        return [layer for layer in view.layers if not layer.sparse]

    @staticmethod
    def _chosen(view):
        return np.array([layer.index for layer in view.layers if not layer.sparse], np.int64)

    def signature(self, view):
        return _layer_signature(self._layers(view))

    def start(self, view):
        layers = self._layers(view)
        return RuleState(self.signature(view), extra={
            "layers": layers, "chosen": self._chosen(view),
            "scale": np.sqrt([float(layer.numel) for layer in layers]),
            "held": HeldTracker(len(layers), WINDOW)})  # fmt: skip

    @staticmethod
    def _rms(view, state, rows):
        norms = view.layer_norms("grad_norm", rows)[:, state.extra["chosen"]]
        return norms / state.extra["scale"]

    def advance(self, view, state, rows):
        if len(state.extra["layers"]) < VANISHING_MIN_LAYERS:
            return
        rms = self._rms(view, state, rows)
        known = np.where(np.isfinite(rms), rms, 0.0)
        later = np.zeros_like(known)  # the largest RMS among the layers after each one
        later[:, :-1] = np.maximum.accumulate(known[:, ::-1], axis=1)[:, ::-1][:, 1:]
        with np.errstate(invalid="ignore"):
            held = (known > 0) & (later > 0) & (known <= VANISHING_RATIO * later)
        state.extra["held"].feed(held)

    def findings(self, view, state):
        layers = state.extra["layers"]
        if len(layers) < VANISHING_MIN_LAYERS:
            return []
        first = state.extra["held"].first()
        start, holding = earliest(first)
        if start < 0:
            return []
        chosen = [layers[i] for i in holding]
        lowest = int(holding[0])
        at = int(first[lowest])
        rms = self._rms(view, state, slice(at, at + 1))[0]
        known = np.where(np.isfinite(rms), rms, 0.0)
        reference = lowest + 1 + int(np.argmax(known[lowest + 1 :]))
        return [view.finding(
            self.name, start, view.layer_names(chosen),
            texts.vanishing_title([layer.index for layer in chosen], view.step(start)),
            texts.vanishing_detail(layers[lowest], known[lowest], layers[reference],
                                   known[reference], view.step(at)),
            texts.vanishing_remedy(),
        )]  # fmt: skip


class ExplodingRule(Rule):
    """The whole gradient norm grown EXPLODING_GROWTH × from its start, or a layer's gradient
    EXPLODING_GRAD_TO_WEIGHT × its weights; non-finite gradients after that count too."""

    name = "exploding_gradients"

    def signature(self, view):
        return _layer_signature(view.layers)

    def start(self, view):
        return RuleState(self.signature(view), settled=False, extra={
            "early": [], "level": np.nan, "seen": False,
            "first_weights": np.full(len(view.layers), np.nan),
            "held": HeldTracker(1, WINDOW)})  # fmt: skip

    @staticmethod
    def _norms(view, state, rows):
        grad = view.layer_norms("grad_norm", rows)
        weight = view.layer_norms("weight_norm", rows)
        with np.errstate(invalid="ignore"):
            total = np.sqrt(np.nansum(np.square(grad), axis=1))
        total[np.isnan(grad).all(axis=1)] = np.nan
        return grad, weight, total

    def advance(self, view, state, rows):
        extra = state.extra
        if not view.layers:
            return
        grad, weight, total = self._norms(view, state, rows)
        if len(extra["early"]) < EARLY_STEPS:
            fresh = total[np.isfinite(total) & (total > 0)]
            extra["early"].extend(fresh[: EARLY_STEPS - len(extra["early"])].tolist())
            extra["level"] = float(np.median(extra["early"])) if extra["early"] else np.nan
            state.settled = len(extra["early"]) >= EARLY_STEPS  # else: judged again from 0
        first_weights = extra["first_weights"]
        unknown = np.isnan(first_weights)
        if unknown.any() and weight.shape[0]:
            seen_rows = np.isfinite(weight[:, unknown])
            found = seen_rows.any(axis=0)
            columns = np.flatnonzero(unknown)[found]
            first_weights[columns] = weight[seen_rows[:, found].argmax(axis=0), columns]
        with np.errstate(invalid="ignore", divide="ignore"):
            growth = np.isfinite(total) & (total >= EXPLODING_GROWTH * extra["level"])
            large = self._large(grad, weight, first_weights).any(axis=1)
        exploded = growth | large
        broken = np.isinf(total) | np.isin(np.arange(rows.start, rows.stop), view.broken_rows)
        seen = extra["seen"] | (np.cumsum(exploded) > 0)
        extra["seen"] = bool(seen[-1]) if seen.size else extra["seen"]
        extra["ends_broken"] = bool(broken[-1]) if broken.size else False
        extra["held"].feed((exploded | (broken & seen))[:, None])

    @staticmethod
    def _large(grad, weight, first_weights):
        """Layers whose gradient is ≥ EXPLODING_GRAD_TO_WEIGHT × their weights, among those
        that started non-zero and kept at least half of it."""
        kept = (first_weights > 0) & (weight >= EXPLODING_WEIGHT_KEPT * first_weights)
        return kept & (weight > 0) & (grad >= EXPLODING_GRAD_TO_WEIGHT * weight)

    def findings(self, view, state):
        if not view.layers:
            return []
        held = state.extra["held"]
        start = int(held.first()[0])
        if start < 0 and state.extra.get("ends_broken") and held.since[0] >= 0:
            start = int(held.since[0])  # it exploded into NaN/inf and stayed there to the end
        if start < 0:
            return []
        grad, weight, total = self._norms(view, state, slice(start, start + 1))
        level = state.extra["level"]
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = grad[0] / weight[0]
            large = np.flatnonzero(self._large(grad, weight, state.extra["first_weights"])[0])
        chosen = [view.layers[i] for i in large] or list(view.layers)
        grew = bool(np.isfinite(total[0]) and total[0] >= EXPLODING_GROWTH * level)
        finite = ratio[np.isfinite(ratio)]
        return [view.finding(
            self.name, start, view.layer_names(chosen),
            texts.exploding_title([layer.index for layer in chosen], view.step(start)),
            texts.exploding_detail(total[0], level if grew else None,
                                   float(finite.max()) if finite.size else None, view.step(start)),
            texts.exploding_remedy(),
        )]  # fmt: skip


class UpdateRatioRule(Rule):
    """Weight matrices whose ‖Δw‖/‖w‖ is far above or below 1e-3 over WINDOW sampled steps."""

    name = "update_ratio"

    @staticmethod
    def _columns(view):
        matrices = [i for i, shape in enumerate(view.param_shapes) if shape and len(shape) >= 2]
        return np.array(matrices or range(len(view.params)), dtype=np.int64)

    def signature(self, view):
        return tuple(view.params[i] for i in self._columns(view))

    def start(self, view):
        columns = self._columns(view)
        high, low = HeldTracker(len(columns), WINDOW), HeldTracker(len(columns), WINDOW)
        extra = {"columns": columns, "sampled": [], "high": high, "low": low}
        return RuleState(self.signature(view), extra=extra)

    def advance(self, view, state, rows):
        columns = state.extra["columns"]
        if columns.size == 0:
            return
        ratios = view.table("update_ratio", rows)
        sampled = np.flatnonzero(np.isfinite(ratios).any(axis=1))
        if sampled.size == 0:
            return
        state.extra["sampled"].extend((rows.start + sampled).tolist())
        ratios = ratios[sampled][:, columns].astype(np.float64)
        grads = view.table("grad_norm", rows)[sampled][:, columns]
        with np.errstate(invalid="ignore"):
            moving = np.isfinite(ratios) & (ratios > 0) & np.isfinite(grads) & (grads > 0)
            state.extra["high"].feed(moving & (ratios >= UPDATE_RATIO_HIGH))
            state.extra["low"].feed(moving & (ratios <= UPDATE_RATIO_LOW))

    def findings(self, view, state):
        columns, sampled = state.extra["columns"], state.extra["sampled"]
        found = []
        for kind, key, bar in (("update_ratio_high", "high", UPDATE_RATIO_HIGH),
                               ("update_ratio_low", "low", UPDATE_RATIO_LOW)):  # fmt: skip
            first = state.extra[key].first()
            start, holding = earliest(first)
            if start < 0:
                continue
            names = tuple(view.params[columns[i]] for i in holding)
            rows = np.array([sampled[int(first[i])] for i in holding])
            values = view.table("update_ratio", rows)[np.arange(len(holding)), columns[holding]]
            row = sampled[start]
            found.append(view.finding(
                kind, row, names,
                texts.update_title(kind, names, float(np.median(values)), view.step(row)),
                texts.update_detail(names, values, bar), texts.update_remedy(kind),
            ))  # fmt: skip
        return found


VANISHING_GRADIENTS = VanishingRule()
EXPLODING_GRADIENTS = ExplodingRule()
UPDATE_RATIOS = UpdateRatioRule()
