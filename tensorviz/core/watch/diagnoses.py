"""What is wrong with a run, read from one rank's statistics: vanishing or exploding gradients,
the first non-finite value, dead or saturated units, update ratios far from ~1e-3.

`diagnose(series)` is cheap enough to call on every refresh of a live run (vectorised NumPy over
the steps × parameters tables, row chunks of a few MB; see series_windows.py). Every diagnosis
must hold over WINDOW consecutive recorded steps (one noisy step never fires one), except the
first non-finite value, which is a fact at its step. The thresholds and why: diagnosis_rules.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tensorviz.core.watch.diagnosis_rules import DETECTORS, SeriesView
from tensorviz.core.watch.run_reader import RankSeries

KINDS = (
    "vanishing_gradients",
    "exploding_gradients",
    "non_finite",
    "dead_units",
    "saturated_units",
    "update_ratio_high",
    "update_ratio_low",
)


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
    optimizers = np.asarray(series.optimizers, dtype=np.int64)
    for optimizer in np.unique(optimizers) if optimizers.size else []:
        rows = np.flatnonzero(optimizers == optimizer)
        view = SeriesView.of(series, rows if len(rows) < len(optimizers) else None)
        for detector in DETECTORS:
            for finding in detector(view):
                diagnosis = Diagnosis(**finding)
                held = found.get(diagnosis.kind)
                if held is None or diagnosis.row < held.row:
                    found[diagnosis.kind] = diagnosis
    return sorted(found.values(), key=lambda d: (d.row, KINDS.index(d.kind)))
