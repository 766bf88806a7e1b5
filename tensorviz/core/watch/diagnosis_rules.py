"""What a rule reads and keeps: the SeriesView (one optimizer's rows of one rank), the Rule
interface, and the rules on module outputs and on non-finite values; the gradient rules are in
gradient_rules.py. The thresholds and why: diagnosis_thresholds.py.

A rule is fed its view's rows in order, a chunk at a time (`advance`), into a RuleState it keeps
between calls, so a live run is judged on its new rows only; `findings` turns the state into the
fields of Diagnosis records (texts translated when asked, in the language then in force).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from tensorviz.core.watch import diagnosis_texts as texts
from tensorviz.core.watch.diagnosis_thresholds import (
    DEAD_FRACTION,
    SATURATED_FRACTION,
    SPARSE_GRADIENT_TYPES,
    WINDOW,
)
from tensorviz.core.watch.non_finite_index import NonFiniteIndex
from tensorviz.core.watch.run_reader import RankSeries
from tensorviz.core.watch.series_windows import Groups, HeldTracker, earliest, group_norms


@dataclass
class Layer:
    index: int
    module: str
    columns: np.ndarray  # the layer's parameter columns in the tables
    numel: int  # elements of its parameters (1 each where shapes are unknown)
    sparse: bool


@dataclass
class SeriesView:
    """One optimizer's rows of a rank, read through (no copy of the tables)."""

    series: RankSeries
    rows: np.ndarray | None  # the series rows of this optimizer; None: every row
    count: int
    params: list[str]
    modules: list[str]
    module_kinds: list[str]
    param_shapes: list[list[int] | None]
    layers: list[Layer]
    non_finite: NonFiniteIndex  # the series' non-finite counts, by row
    first_non_finite: int  # the view's first row with a non-finite count (-1: none)
    losses: np.ndarray
    broken_rows: np.ndarray  # the view rows with a non-finite gradient, sorted
    groups: Groups = None  # every layer's columns
    _chunk_norms: dict = field(default_factory=dict)

    @classmethod
    def of(cls, series: RankSeries, rows: np.ndarray | None, non_finite: NonFiniteIndex):
        count = len(series.steps) if rows is None else len(rows)
        params = list(series.param_names)
        modules = list(series.module_names)
        non_finite.update(series.non_finite)
        any_rows = non_finite.view_rows(non_finite.rows, rows)
        return cls(
            series=series,
            rows=rows,
            count=count,
            params=params,
            modules=modules,
            module_kinds=[series.module_info.get(m, {}).get("kind", "other") for m in modules],
            param_shapes=[series.param_info.get(p, {}).get("shape") for p in params],
            layers=_layers(series, params),
            non_finite=non_finite,
            first_non_finite=int(any_rows[0]) if any_rows.size else -1,
            losses=_losses(series, rows),
            broken_rows=non_finite.view_rows(non_finite.grad_rows, rows),
        )

    def non_finite_at(self, row: int) -> list[dict]:
        """The non-finite counts of the view's `row`: {what, name, count}."""
        return self.non_finite.entries_at(self.series.non_finite, self.series_row(row))

    def __post_init__(self):
        self.groups = Groups([layer.columns for layer in self.layers])

    def layer_norms(self, name: str, rows: slice) -> np.ndarray:
        """rows × layers: each layer's norm of the statistic `name` (its parameters' norms
        taken together); kept for the chunk being read, which every rule shares."""
        key = (name, rows.start, rows.stop)
        if key not in self._chunk_norms:
            self._chunk_norms[key] = group_norms(self.table(name, rows), self.groups)
        return self._chunk_norms[key]

    def forget_chunk(self) -> None:
        self._chunk_norms.clear()

    def table(self, name: str, rows: slice | np.ndarray) -> np.ndarray:
        """The view's `rows` of a statistic's table (a slice of view rows, or view row indices)."""
        values = self.series.tables[name].values
        if self.rows is None:
            return values[rows]
        return values[self.rows[rows]]

    def loss(self, rows: slice) -> np.ndarray:
        return self.losses[rows]

    def series_row(self, row: int) -> int:
        return int(row if self.rows is None else self.rows[row])

    def step(self, row: int) -> int:
        return int(self.series.steps[self.series_row(row)])

    def layer_names(self, layers) -> tuple[str, ...]:
        columns = sorted(int(c) for layer in layers for c in layer.columns)
        return tuple(self.params[c] for c in columns)

    def finding(self, kind: str, row: int, names, title, detail, remedy) -> dict:
        return {"kind": kind, "step": self.step(row), "row": self.series_row(row),
                "names": tuple(names), "title": title, "detail": detail,
                "remedy": remedy}  # fmt: skip


def _losses(series: RankSeries, rows: np.ndarray | None) -> np.ndarray:
    losses = np.asarray(series.loss[: len(series.steps)], dtype=np.float64)
    return losses if rows is None else losses[rows]


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
        layers.append(Layer(index, module, np.array(columns, dtype=np.int64), max(numel, 1),
                            kind in SPARSE_GRADIENT_TYPES))  # fmt: skip
    return layers


def _numel(shape) -> int:
    if not isinstance(shape, list | tuple):
        return 1
    try:
        return math.prod(int(s) for s in shape) if shape else 1
    except (TypeError, ValueError):
        return 1


@dataclass
class RuleState:
    """What a rule keeps between calls; `rows`: the view rows it has read."""

    signature: tuple
    rows: int = 0
    settled: bool = True  # False: start again next time (it depends on rows still to come)
    extra: dict = field(default_factory=dict)


class Rule:
    name = ""

    def signature(self, view: SeriesView) -> tuple:
        return (len(view.params), len(view.modules))

    def start(self, view: SeriesView) -> RuleState:
        return RuleState(self.signature(view))

    def advance(self, view: SeriesView, state: RuleState, rows: slice) -> None:
        raise NotImplementedError

    def findings(self, view: SeriesView, state: RuleState) -> list[dict]:
        raise NotImplementedError


class NonFiniteRule(Rule):
    """The first step with a NaN or inf: in a weight, a module output or a gradient (the
    recorder's counts), an infinite weight norm (a NaN one is a parameter not there yet), or in
    the loss (inf; NaN once a finite loss was
    seen — a NaN loss is also "no loss logged")."""

    name = "non_finite"

    def start(self, view):
        return RuleState(self.signature(view), extra={"first": -1, "loss_seen": False})

    def advance(self, view, state, rows):
        extra = state.extra
        if extra["first"] >= 0:
            return
        loss = view.loss(rows)
        finite = np.isfinite(loss)
        bad = np.isinf(loss)
        if extra["loss_seen"]:
            bad |= np.isnan(loss)
        elif finite.any():
            first_finite = int(finite.argmax())
            bad[first_finite:] |= np.isnan(loss[first_finite:])
        extra["loss_seen"] |= bool(finite.any())
        weights = view.table("weight_norm", rows)  # NaN there: not in the schema yet
        if weights.size:
            bad |= np.isinf(weights).any(axis=1)
        if bad.any():
            extra["first"] = rows.start + int(bad.argmax())

    def findings(self, view, state):
        candidates = [view.first_non_finite] if view.first_non_finite >= 0 else []
        if state.extra["first"] >= 0:
            candidates.append(state.extra["first"])
        if not candidates:
            return []
        row = min(candidates)
        order = {"weight": 0, "activation": 1, "grad": 2}
        entries = view.non_finite_at(row)
        named = {(e["what"], e["name"]) for e in entries}
        weights = view.table("weight_norm", np.array([row]))[0]
        for column in np.flatnonzero(np.isinf(weights)):
            if ("weight", view.params[column]) not in named:
                entries.append({"what": "weight", "name": view.params[column], "count": 0})
        params = {name: i for i, name in enumerate(view.params)}
        modules = {name: i for i, name in enumerate(view.modules)}

        def place(entry):
            where = modules if entry["what"] == "activation" else params
            return order.get(entry["what"], 3), where.get(entry["name"], len(where))

        entries.sort(key=place)
        names = tuple(dict.fromkeys(e["name"] for e in entries))
        first = entries[0] if entries else None
        loss = view.loss(slice(row, row + 1))[0]
        title = texts.non_finite_title(first, view.step(row))
        detail = texts.non_finite_detail(entries, loss)
        return [
            view.finding("non_finite", row, names, title, detail, texts.non_finite_remedy(first))
        ]


class UnitFractionRule(Rule):
    """Modules of some kinds whose dead/saturated fraction is at least a bar, held WINDOW steps."""

    def __init__(self, name: str, kinds: tuple[str, ...], bar: float, words):
        self.name, self.kinds, self.bar, self.words = name, kinds, bar, words

    def _columns(self, view):
        return np.array([i for i, k in enumerate(view.module_kinds) if k in self.kinds], np.int64)

    def signature(self, view):
        return tuple(view.modules[i] for i in self._columns(view))

    def start(self, view):
        columns = self._columns(view)
        return RuleState(
            self.signature(view),
            extra={"columns": columns, "held": HeldTracker(len(columns), WINDOW)},
        )

    def advance(self, view, state, rows):
        columns = state.extra["columns"]
        if columns.size == 0:
            return
        fractions = view.table("act_fraction", rows)[:, columns]
        with np.errstate(invalid="ignore"):
            state.extra["held"].feed(np.isfinite(fractions) & (fractions >= self.bar))

    def findings(self, view, state):
        columns = state.extra["columns"]
        first = state.extra["held"].first()
        start, holding = earliest(first)
        if start < 0:
            return []
        names = tuple(view.modules[columns[i]] for i in holding)
        values = view.table("act_fraction", first[holding])[np.arange(len(holding)),
                                                             columns[holding]]  # fmt: skip
        title, detail, remedy = self.words
        return [view.finding(self.name, start, names, title(names, view.step(start)),
                             detail(names, values, self.bar), remedy())]  # fmt: skip


DEAD_UNITS = UnitFractionRule(
    "dead_units", ("relu",), DEAD_FRACTION, (texts.dead_title, texts.dead_detail, texts.dead_remedy)
)
SATURATED_UNITS = UnitFractionRule(
    "saturated_units", ("tanh", "sigmoid"), SATURATED_FRACTION,
    (texts.saturated_title, texts.saturated_detail, texts.saturated_remedy),
)  # fmt: skip
