"""What is wrong with a run, read from one rank's statistics: vanishing or exploding gradients,
the first non-finite value, dead or saturated units, update ratios far from ~1e-3.

`diagnose(series)` is cheap enough to call on every refresh of a live run: each rule reads the
steps × parameters tables in row chunks (vectorised NumPy, series_windows.py) and keeps what it
found per series between calls, so a refresh costs only the rows that arrived since the last
one. Every diagnosis must hold over WINDOW consecutive recorded steps (one noisy step never
fires one), except the first non-finite value, a fact at its step. The rules:
diagnosis_rules.py and gradient_rules.py; their thresholds and why: diagnosis_thresholds.py.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import numpy as np

from tensorviz.core.watch.diagnosis_rules import (
    DEAD_UNITS,
    SATURATED_UNITS,
    NonFiniteRule,
    Rule,
    RuleState,
    SeriesView,
)
from tensorviz.core.watch.gradient_rules import (
    EXPLODING_GRADIENTS,
    UPDATE_RATIOS,
    VANISHING_GRADIENTS,
)
from tensorviz.core.watch.non_finite_index import NonFiniteIndex
from tensorviz.core.watch.run_reader import RankSeries
from tensorviz.core.watch.series_windows import row_chunks

KINDS = (
    "vanishing_gradients",
    "exploding_gradients",
    "non_finite",
    "dead_units",
    "saturated_units",
    "update_ratio_high",
    "update_ratio_low",
)
RULES: tuple[Rule, ...] = (NonFiniteRule(), EXPLODING_GRADIENTS, VANISHING_GRADIENTS, DEAD_UNITS,
                           SATURATED_UNITS, UPDATE_RATIOS)  # fmt: skip


@dataclass(frozen=True)
class Diagnosis:
    """One finding: `kind` (KINDS), the `step` it holds from and that step's `row` in the
    series, the parameter or module dotted `names` it concerns, and three translated texts: a
    one-line `title`, the figures (`detail`) and what to do (`remedy`)."""

    kind: str
    step: int
    row: int
    names: tuple[str, ...]
    title: str
    detail: str
    remedy: str

    def to_json(self) -> dict:
        return {"kind": self.kind, "step": self.step, "row": self.row, "names": list(self.names),
                "title": self.title, "detail": self.detail, "remedy": self.remedy}  # fmt: skip


def diagnose(series: RankSeries) -> list[Diagnosis]:
    """The diagnoses of one rank, earliest step first (one per kind: its first occurrence).
    Steps of different optimizers (a GAN's two) are judged apart, each over its own rows."""
    found: dict[str, Diagnosis] = {}
    optimizers = np.asarray(series.optimizers[: len(series.steps)], dtype=np.int64)
    memory = _memory_of(series)
    with memory.lock:
        for optimizer in np.unique(optimizers).tolist():
            rows = np.flatnonzero(optimizers == optimizer)
            subset = rows if len(rows) < len(optimizers) else None
            view = SeriesView.of(series, subset, memory.non_finite)
            states = _advanced(memory.states, (optimizer, view.rows is None), view)
            for rule, state in zip(RULES, states, strict=True):
                for finding in rule.findings(view, state):
                    diagnosis = Diagnosis(**finding)
                    held = found.get(diagnosis.kind)
                    if held is None or diagnosis.row < held.row:
                        found[diagnosis.kind] = diagnosis
    return sorted(found.values(), key=lambda d: (d.row, KINDS.index(d.kind)))


def _advanced(memory: dict, key: tuple, view: SeriesView) -> list[RuleState]:
    """Each rule's state, fed the view's rows it has not read yet (all of them if the
    parameters or modules changed, or if the state depended on rows still to come), a chunk
    at a time for every rule together, so the rules share each chunk's layer norms."""
    states = []
    for rule in RULES:
        state = memory.get((*key, rule.name))
        if (state is None or not state.settled or state.rows > view.count
                or state.signature != rule.signature(view)):  # fmt: skip
            state = rule.start(view)
        memory[(*key, rule.name)] = state
        states.append(state)
    for rows in row_chunks(view.count, min((s.rows for s in states), default=view.count)):
        for rule, state in zip(RULES, states, strict=True):
            if state.rows < rows.stop:
                rule.advance(view, state, slice(max(state.rows, rows.start), rows.stop))
                state.rows = rows.stop
        view.forget_chunk()
    return states


class _Memory:
    def __init__(self):
        self.lock = threading.Lock()
        self.states: dict = {}
        self.non_finite = NonFiniteIndex()


_memories: dict[int, tuple[weakref.ref, _Memory]] = {}
_memories_lock = threading.Lock()


def _memory_of(series: RankSeries) -> _Memory:
    """What the rules kept for this series (forgotten with the series)."""
    key = id(series)
    with _memories_lock:
        held = _memories.get(key)
        if held is None or held[0]() is not series:
            reference = weakref.ref(series, lambda _gone, key=key: _memories.pop(key, None))
            held = (reference, _Memory())
            _memories[key] = held
        return held[1]
