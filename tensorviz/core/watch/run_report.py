"""A run folder as one report, headless: what `tensorviz report RUN_DIR [--json]` prints, from
the same functions the viewer shows (diagnose, rank_differences).

`run_report(reader)` is the JSON (docs in the README's CLI section): every recorded step of
every rank with each parameter's gradient norm, weight norm and update ratio (null where not
sampled or absent), the diagnoses, the ranks' differences, how the run ended and the reader's
damage sentences. `report_lines(report)` is the text form.
"""

from __future__ import annotations

import math

import numpy as np

from tensorviz.core.translation import _
from tensorviz.core.watch.diagnoses import diagnose
from tensorviz.core.watch.diagnosis_texts import number
from tensorviz.core.watch.rank_differences import rank_differences
from tensorviz.core.watch.run_reader import RankSeries, RunReader

PARAM_STATISTICS = ("grad_norm", "weight_norm", "update_ratio")


def run_report(reader: RunReader) -> dict:
    """The whole run as plain JSON-ready data (NaN and inf become null)."""
    ranks = [reader.ranks[r] for r in sorted(reader.ranks)]
    diagnoses = []
    for series in ranks:
        for diagnosis in diagnose(series):
            diagnoses.append({"rank": series.rank, "kind": diagnosis.kind,
                              "step": diagnosis.step, "names": list(diagnosis.names),
                              "title": diagnosis.title, "detail": diagnosis.detail,
                              "remedy": diagnosis.remedy})  # fmt: skip
    return {
        "name": reader.name,
        "folder": str(reader.folder),
        "world_size": reader.info.get("world_size", len(ranks)),
        "ranks": [series.rank for series in ranks],
        "steps": [record for series in ranks for record in _step_records(series)],
        "diagnoses": diagnoses,
        "rank_differences": [d.to_json() for d in rank_differences(reader)],
        "ended": _ended(ranks),
        "problems": list(reader.problems),
    }


def _step_records(series: RankSeries) -> list[dict]:
    count = len(series.steps)
    names = series.param_names
    columns = []
    for statistic in PARAM_STATISTICS:
        table = series.tables[statistic]
        values = np.full((count, len(names)), np.nan, dtype=np.float64)
        present = [(i, table.index_of(n)) for i, n in enumerate(names)]
        present = [(i, c) for i, c in present if c is not None]
        if present and table.rows:
            ours, theirs = (list(x) for x in zip(*present, strict=True))
            values[: table.rows, ours] = table.values[:count, theirs]
        columns.append(_nullable(values))
    records = []
    for row in range(count):
        grads, weights, updates = (column[row] for column in columns)
        cells = zip(names, grads, weights, updates, strict=True)
        params = {n: {"grad_norm": g, "weight_norm": w, "update_ratio": u} for n, g, w, u in cells}
        records.append({"step": series.steps[row], "rank": series.rank,
                        "optimizer": series.optimizers[row], "loss": _finite(series.loss[row]),
                        "params": params})  # fmt: skip
    return records


def _nullable(values: np.ndarray) -> list[list]:
    """Rows of floats with None where not finite, in one vectorised pass."""
    objects = values.astype(object)
    objects[~np.isfinite(values)] = None
    return objects.tolist()


def _finite(value) -> float | None:
    return float(value) if value is not None and math.isfinite(value) else None


def _ended(ranks: list[RankSeries]) -> dict:
    """How the run ended: the first rank that raised or was stopped, else rank 0's end; a run
    with no end recorded (still running, or killed) is status null at its last whole step."""
    ends = [(series, series.ended) for series in ranks]
    for series, end in ends:
        if end is not None and end.get("status") in ("error", "interrupted"):
            return _end_record(series, end)
    for series, end in ends:
        if end is None:
            return _end_record(series, None)
    return _end_record(*ends[0]) if ends else {"status": None, "step": None, "error": None,
                                               "rank": None}  # fmt: skip


def _end_record(series: RankSeries, end: dict | None) -> dict:
    last = series.steps[-1] if series.steps else None
    if end is None:
        return {"status": None, "step": last, "error": None, "rank": series.rank}
    step = end.get("step")
    return {"status": end.get("status"), "step": step if isinstance(step, int) else last,
            "error": end.get("error"), "rank": series.rank}  # fmt: skip


def report_lines(report: dict) -> list[str]:
    """The report as text: the run, its size, where it stopped, then the findings."""
    steps = report["steps"]
    ranks = report["ranks"]
    losses = [r["loss"] for r in steps if r["rank"] == (ranks[0] if ranks else 0)]
    losses = [loss for loss in losses if loss is not None]
    lines = [_("run {name} ({folder})").format(name=report["name"], folder=report["folder"])]
    lines.append(
        _("{ranks} rank(s), {steps} step(s) recorded, last loss {loss}").format(
            ranks=len(ranks),
            steps=max((r["step"] for r in steps), default=0),
            loss=number(losses[-1]) if losses else "—",
        )
    )
    lines.append(_ended_line(report["ended"], len(ranks)))
    diagnoses = report["diagnoses"]
    if diagnoses:
        lines.append(_("diagnoses:"))
        for found in diagnoses:
            prefix = _("rank {rank}: ").format(rank=found["rank"]) if len(ranks) > 1 else ""
            lines.append(f"  • {prefix}{found['title']}")
            lines.append(f"    {found['detail']}")
            lines.append("    " + _("what to do: {remedy}").format(remedy=found["remedy"]))
    else:
        lines.append(_("no diagnosis: gradients, activations and update ratios look healthy."))
    for difference in report["rank_differences"]:
        lines.append(f"  • {difference['title']}")
        lines.append(f"    {difference['detail']}")
    for problem in report["problems"]:
        lines.append(_("note: {problem}").format(problem=problem))
    return lines


def _ended_line(ended: dict, ranks: int) -> str:
    status, step = ended.get("status"), ended.get("step")
    where = _(" (rank {rank})").format(rank=ended.get("rank")) if ranks > 1 else ""
    if step is None:
        return _("no step recorded yet") + where
    if status == "finished":
        return _("finished at step {step}").format(step=step) + where
    if status == "error":
        return (
            _("stopped at step {step} with {error}").format(
                step=step, error=ended.get("error") or _("an error")
            )
            + where
        )
    if status == "interrupted":
        return _("interrupted at step {step}").format(step=step) + where
    return (
        _("no end recorded (still running, or killed): last whole step {step}").format(step=step)
        + where
    )
