"""The rules behind each diagnosis, with their thresholds (why each: the comments).

A rule reads a SeriesView (one optimizer's rows of one rank) and yields the fields of a
Diagnosis. Gradients are judged per layer — a module's parameters taken together — so a weight
and its bias speak as one, and compared as root-mean-square per element, so a LayerNorm's 128
numbers and a 50k × 128 matrix are comparable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tensorviz.core.watch import diagnosis_texts as texts
from tensorviz.core.watch.run_reader import RankSeries
from tensorviz.core.watch.series_windows import early_level, first_held, group_norms, held_from

# A finding must hold over this many consecutive recorded steps (fewer in a shorter run: all).
WINDOW = 5
# Vanishing: a layer's gradient RMS ≤ 1e-2 of the largest RMS of the layers after it (two orders
# of magnitude; in a healthy MLP or transformer layers stay within ~10× of each other, while
# each sigmoid layer divides the gradient by ≥ 4). Needs 3 layers or more.
VANISHING_RATIO = 1e-2
VANISHING_MIN_LAYERS = 3
# Exploding: the whole gradient norm ≥ 1e3 × where it started (the median of its first WINDOW
# steps), or a layer's gradient norm ≥ 1e2 × its weight norm (one SGD step at lr 1e-2 would then
# move the layer by its own size); non-finite gradients after such growth count as holding.
EXPLODING_GROWTH = 1e3
EXPLODING_GRAD_TO_WEIGHT = 1e2
# Update ratio ‖Δw‖/‖w‖ of weight matrices (2-d and up; every parameter if none is): healthy
# near 1e-3 (Karpathy's makemore rule of thumb); "far" is two orders of magnitude either way.
UPDATE_RATIO_HIGH = 1e-1
UPDATE_RATIO_LOW = 1e-5
# Dead: a ReLU-family module whose outputs are exactly 0 for ≥ 99 % of the elements (a healthy
# ReLU is ~50 %; trained transformer MLPs reach ~95 %, so the bar sits above them).
DEAD_FRACTION = 0.99
# Saturated: tanh |y| > 0.99 or sigmoid y < 0.01 / > 0.99 (gradient < 0.02 there) for ≥ half the
# outputs (a well initialised tanh layer has a few %).
SATURATED_FRACTION = 0.5
# Layers whose gradients are sparse by nature (only the rows of tokens seen): never "vanishing".
SPARSE_GRADIENT_TYPES = ("Embedding", "EmbeddingBag")


@dataclass
class Layer:
    index: int
    module: str
    columns: np.ndarray  # the layer's parameter columns in the tables
    numel: int  # elements of its parameters (1 each where shapes are unknown)
    sparse: bool


@dataclass
class SeriesView:
    """One optimizer's rows of a rank: the tables (views, or copies of the chosen rows)."""

    steps: np.ndarray
    rows: np.ndarray  # each view row's row in the series
    loss: np.ndarray
    grad: np.ndarray
    weight: np.ndarray
    update: np.ndarray
    act_fraction: np.ndarray
    params: list[str]
    modules: list[str]
    module_kinds: list[str]
    param_shapes: list[list[int] | None]
    layers: list[Layer]
    non_finite: list[dict]  # {step, row, what, name, count}, row = the view's row

    @classmethod
    def of(cls, series: RankSeries, rows: np.ndarray | None) -> SeriesView:
        count = len(series.steps)

        def pick(values: np.ndarray) -> np.ndarray:
            values = values[:count]
            return values if rows is None else values[rows]

        chosen = np.arange(count) if rows is None else rows
        position = {int(r): i for i, r in enumerate(chosen)} if rows is not None else None
        params = list(series.param_names)
        modules = list(series.module_names)
        non_finite = []
        for entry in series.non_finite:
            row = entry["row"] if position is None else position.get(entry["row"])
            if row is not None:
                non_finite.append(dict(entry, row=row))
        return cls(
            steps=pick(np.asarray(series.steps, dtype=np.int64)),
            rows=chosen,
            loss=pick(np.asarray(series.loss, dtype=np.float64)),
            grad=pick(series.tables["grad_norm"].values),
            weight=pick(series.tables["weight_norm"].values),
            update=pick(series.tables["update_ratio"].values),
            act_fraction=pick(series.tables["act_fraction"].values),
            params=params,
            modules=modules,
            module_kinds=[series.module_info.get(m, {}).get("kind", "other") for m in modules],
            param_shapes=[series.param_info.get(p, {}).get("shape") for p in params],
            layers=_layers(series, params),
            non_finite=non_finite,
        )

    def layer_names(self, layers) -> tuple[str, ...]:
        columns = sorted(int(c) for layer in layers for c in layer.columns)
        return tuple(self.params[c] for c in columns)


def _layers(series: RankSeries, params: list[str]) -> list[Layer]:
    grouped: dict[str, list[int]] = {}
    for column, name in enumerate(params):
        module = series.param_info.get(name, {}).get("module")
        if not isinstance(module, str):
            module = name.rpartition(".")[0]
        grouped.setdefault(module, []).append(column)
    layers = []
    for index, (module, columns) in enumerate(grouped.items()):
        numel = sum(_numel(series.param_info.get(params[c], {}).get("shape")) for c in columns)
        kind = series.module_info.get(module, {}).get("type", "")
        layers.append(Layer(index, module, np.array(columns), max(numel, 1),
                            kind in SPARSE_GRADIENT_TYPES))  # fmt: skip
    return layers


def _numel(shape) -> int:
    if not isinstance(shape, list | tuple):
        return 1
    return math.prod(int(s) for s in shape) if shape else 1


def _finding(view: SeriesView, kind: str, row: int, names, title, detail, remedy) -> dict:
    return {"kind": kind, "step": int(view.steps[row]), "row": int(view.rows[row]),
            "names": tuple(names), "title": title, "detail": detail, "remedy": remedy}  # fmt: skip


def vanishing_gradients(view: SeriesView):
    layers = [layer for layer in view.layers if not layer.sparse]
    if len(layers) < VANISHING_MIN_LAYERS or view.grad.shape[0] == 0:
        return
    norms = group_norms(view.grad, [layer.columns for layer in layers])
    rms = norms / np.sqrt([layer.numel for layer in layers])
    known = np.where(np.isfinite(rms), rms, 0.0)
    later = np.zeros_like(known)  # the largest RMS of the layers after each one
    later[:, :-1] = np.maximum.accumulate(known[:, ::-1], axis=1)[:, ::-1][:, 1:]
    with np.errstate(invalid="ignore"):
        held = (rms > 0) & (later > 0) & (rms <= VANISHING_RATIO * later)  # 0: dead, not vanishing
    first = first_held(held, WINDOW)
    start, holding = held_from(first)
    if start < 0:
        return
    chosen = [layers[i] for i in holding]
    at = int(first[holding[0]])
    reference = int(np.argmax(known[at, holding[0] + 1 :])) + holding[0] + 1
    yield _finding(
        view, "vanishing_gradients", start, view.layer_names(chosen),
        texts.vanishing_title([layer.index for layer in chosen], int(view.steps[start])),
        texts.vanishing_detail(chosen[0], rms[at, holding[0]], layers[reference],
                               known[at, reference], int(view.steps[at])),
        texts.vanishing_remedy(),
    )  # fmt: skip


def exploding_gradients(view: SeriesView):
    rows = view.grad.shape[0]
    if rows == 0 or not view.layers:
        return
    columns = [layer.columns for layer in view.layers]
    grad = group_norms(view.grad, columns)
    weight = group_norms(view.weight, columns)
    total = group_norms(view.grad, [np.arange(len(view.params))])[:, 0]
    start_level = early_level(total[:, None], WINDOW)[0]
    with np.errstate(invalid="ignore", divide="ignore"):
        growth = np.isfinite(total) & (total >= EXPLODING_GROWTH * start_level)
        large = (weight > 0) & (grad >= EXPLODING_GRAD_TO_WEIGHT * weight)
    exploded = growth | large.any(axis=1)
    broken = np.zeros(rows, dtype=bool)
    for entry in view.non_finite:
        if entry["what"] == "grad":
            broken[entry["row"]] = True
    broken |= np.isinf(total)
    held = exploded | (broken & (np.cumsum(exploded) > 0))
    first = first_held(held[:, None], WINDOW)
    start = int(first[0])
    if start < 0:
        return
    at = int(np.flatnonzero(exploded[start:])[0]) + start
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = grad[at] / weight[at]
    chosen = [view.layers[i] for i in np.flatnonzero(large[at])]
    if not chosen:
        chosen = list(view.layers)
    yield _finding(
        view, "exploding_gradients", start, view.layer_names(chosen),
        texts.exploding_title([layer.index for layer in chosen], int(view.steps[start])),
        texts.exploding_detail(total[at], start_level if growth[at] else None,
                               float(np.nanmax(ratio)) if np.isfinite(ratio).any() else None,
                               int(view.steps[at])),
        texts.exploding_remedy(),
    )  # fmt: skip


def non_finite(view: SeriesView):
    rows = view.grad.shape[0]
    if rows == 0:
        return
    first_row = min((e["row"] for e in view.non_finite), default=rows)
    loss_bad = np.flatnonzero(~np.isfinite(view.loss) & ~np.isnan(view.loss))
    nan_loss = np.flatnonzero(np.isnan(view.loss))
    # a NaN loss is also "no loss logged": only a loss that was finite before and became NaN
    finite_before = np.isfinite(view.loss)
    if nan_loss.size and finite_before.any():
        nan_loss = nan_loss[nan_loss > np.flatnonzero(finite_before)[0]]
    else:
        nan_loss = nan_loss[:0]
    weights_bad = np.flatnonzero(~np.isfinite(view.weight).all(axis=1)) if view.weight.size else []
    candidates = [first_row]
    for found in (loss_bad, nan_loss, weights_bad):
        if len(found):
            candidates.append(int(found[0]))
    row = min(candidates)
    if row >= rows:
        return
    order = {"weight": 0, "activation": 1, "grad": 2}
    entries = sorted((e for e in view.non_finite if e["row"] == row),
                     key=lambda e: order.get(e["what"], 3))  # fmt: skip
    seen = {(e["what"], e["name"]) for e in entries}
    if view.weight.size:
        for column in np.flatnonzero(~np.isfinite(view.weight[row])):
            if ("weight", view.params[column]) not in seen:
                entries.insert(0, {"what": "weight", "name": view.params[column], "count": 0})
    entries = _in_schema_order(view, entries, order)
    names = tuple(dict.fromkeys(e["name"] for e in entries))
    first = entries[0] if entries else None
    yield _finding(
        view, "non_finite", row, names,
        texts.non_finite_title(first, int(view.steps[row])),
        texts.non_finite_detail(entries, view.loss[row]),
        texts.non_finite_remedy(first),
    )  # fmt: skip


def _in_schema_order(view: SeriesView, entries: list[dict], order: dict) -> list[dict]:
    params = {name: i for i, name in enumerate(view.params)}
    modules = {name: i for i, name in enumerate(view.modules)}

    def key(entry):
        where = modules if entry["what"] == "activation" else params
        return order.get(entry["what"], 3), where.get(entry["name"], len(where))

    return sorted(entries, key=key)


def _unit_fractions(view: SeriesView, kinds: tuple[str, ...], bar: float, kind: str, texts_of):
    columns = np.array([i for i, k in enumerate(view.module_kinds) if k in kinds], dtype=np.int64)
    if columns.size == 0 or view.act_fraction.shape[0] == 0:
        return
    fractions = view.act_fraction[:, columns]
    with np.errstate(invalid="ignore"):
        held = np.isfinite(fractions) & (fractions >= bar)
    first = first_held(held, WINDOW)
    start, holding = held_from(first)
    if start < 0:
        return
    names = tuple(view.modules[columns[i]] for i in holding)
    values = fractions[first[holding], holding]
    title, detail, remedy = texts_of
    yield _finding(view, kind, start, names, title(names, int(view.steps[start])),
                   detail(names, values, bar), remedy())  # fmt: skip


def dead_units(view: SeriesView):
    yield from _unit_fractions(
        view,
        ("relu",),
        DEAD_FRACTION,
        "dead_units",
        (texts.dead_title, texts.dead_detail, texts.dead_remedy),
    )


def saturated_units(view: SeriesView):
    yield from _unit_fractions(
        view, ("tanh", "sigmoid"), SATURATED_FRACTION, "saturated_units",
        (texts.saturated_title, texts.saturated_detail, texts.saturated_remedy),
    )  # fmt: skip


def update_ratios(view: SeriesView):
    sampled = np.flatnonzero(np.isfinite(view.update).any(axis=1)) if view.update.size else []
    if len(sampled) == 0:
        return
    matrices = [i for i, shape in enumerate(view.param_shapes) if shape and len(shape) >= 2]
    columns = np.array(matrices or range(len(view.params)), dtype=np.int64)
    ratios = view.update[sampled][:, columns].astype(np.float64)
    grads = view.grad[sampled][:, columns]
    with np.errstate(invalid="ignore"):
        moving = np.isfinite(ratios) & (ratios > 0) & np.isfinite(grads) & (grads > 0)
        rules = (
            ("update_ratio_high", moving & (ratios >= UPDATE_RATIO_HIGH), UPDATE_RATIO_HIGH),
            ("update_ratio_low", moving & (ratios <= UPDATE_RATIO_LOW), UPDATE_RATIO_LOW),
        )
    for kind, held, bar in rules:  # fmt: skip
        first = first_held(held, WINDOW)
        start, holding = held_from(first)
        if start < 0:
            continue
        names = tuple(view.params[columns[i]] for i in holding)
        values = ratios[first[holding], holding]
        median = float(np.median(values))
        row = int(sampled[start])
        yield _finding(
            view,
            kind,
            row,
            names,
            texts.update_title(kind, names, median, int(view.steps[row])),
            texts.update_detail(names, values, bar),
            texts.update_remedy(kind),
        )


DETECTORS = (non_finite, exploding_gradients, vanishing_gradients, dead_units, saturated_units,
             update_ratios)  # fmt: skip
