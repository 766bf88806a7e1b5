"""The words and JSON of a comparison (one source for `tensorviz diff` and the Compare area):
the overall line, the status of a row, its figures, the text report and the JSON report."""

from __future__ import annotations

import math

from tensorviz.core.diff.comparison import Comparison, TensorPair
from tensorviz.core.diff.summaries import percent, summary_lines

STATUS_WORDS = {
    "changed": "changed",
    "unchanged": "unchanged",
    "only_a": "only in A",
    "only_b": "only in B",
    "not_compared": "not compared",
}


def figure(value: float | None) -> str:
    if value is None:
        return "—"
    if math.isinf(value) or math.isnan(value):
        return str(value)
    return "0" if value == 0 else f"{value:.4g}"


def status_text(pair: TensorPair) -> str:
    words = STATUS_WORDS[pair.status]
    if pair.renamed and pair.matched_by != "picked":
        how = "identical bytes" if pair.matched_by == "bytes" else "prefix"
        words += f", renamed ({how})"
    return words


def pair_name(pair: TensorPair) -> str:
    """'key', or 'old → new' for a rename."""
    if pair.renamed:
        return f"{pair.a.key} → {pair.b.key}"
    return pair.key


def change_text(pair: TensorPair) -> str:
    """What changed in one phrase: facts, then the values' figures."""
    parts = pair.facts_changed()
    values = pair.values
    if values is not None and values.changed:
        parts.append(
            f"{values.changed:,} of {values.elements:,} elements changed "
            f"({percent(values.changed_fraction)})"
        )
        if values.max_abs is not None:
            parts.append(f"max |Δ| {figure(values.max_abs)}, mean |Δ| {figure(values.mean_abs)}")
        if values.relative is not None:
            parts.append(f"‖Δ‖/‖A‖ {percent(values.relative)}")
        if values.cosine is not None:
            parts.append(f"cosine {values.cosine:.9g}")
        if values.nan_appeared:
            parts.append(f"{values.nan_appeared:,} NaN appeared")
        if values.inf_appeared:
            parts.append(f"{values.inf_appeared:,} Inf appeared")
    return "; ".join(parts)


def overall_line(comparison: Comparison) -> str:
    both = [p for p in comparison.pairs if p.a is not None and p.b is not None]
    parts = [
        f"{len(both)} tensors in both: {comparison.count('changed')} changed, "
        f"{comparison.count('unchanged')} unchanged"
    ]
    if not_compared := comparison.count("not_compared"):
        parts[-1] += f", {not_compared} not compared"
    extra = []
    for status, words in (("only_a", "only in A"), ("only_b", "only in B")):
        if count := comparison.count(status):
            extra.append(f"{count} {words}")
    if comparison.renames:
        extra.append(f"{comparison.renames} renamed")
    if comparison.values:
        extra.append(f"{len(comparison.values)} plain value(s) differ")
    if comparison.sharing:
        extra.append(f"{len(comparison.sharing)} tied-weight group(s) split or merged")
    text = "; ".join(parts + extra)
    if comparison.cancelled:
        return f"Cancelled — found so far: {text}"
    if comparison.error:
        return f"Stopped: {comparison.error} Found so far: {text}"
    verdict = "equal" if comparison.equal else "they differ"
    tolerance = _tolerance_text(comparison)
    return f"{text}. Verdict: {verdict}{tolerance}."


def _tolerance_text(comparison: Comparison) -> str:
    if comparison.atol or comparison.rtol:
        return f" within atol {comparison.atol:g}, rtol {comparison.rtol:g}"
    return ""


def _shown(comparison: Comparison, only_changed: bool) -> list[TensorPair]:
    return [p for p in comparison.pairs if not (only_changed and p.status == "unchanged"
                                                and not p.renamed)]  # fmt: skip


def ranked(pairs: list[TensorPair]) -> list[TensorPair]:
    """Largest relative change first; rows without a figure after, in their order."""
    return sorted(pairs, key=lambda p: -(p.relative_change or 0.0))


def report_lines(comparison: Comparison, only_changed: bool = False) -> list[str]:
    """The text `tensorviz diff` prints."""
    a, b = comparison.side_a, comparison.side_b
    lines = [f"A: {a.label} ({a.format_label})", f"B: {b.label} ({b.format_label})",
             overall_line(comparison), ""]  # fmt: skip
    lines += summary_lines(comparison)
    symbols = {"changed": "~", "unchanged": "=", "only_a": "-", "only_b": "+",
               "not_compared": "?"}  # fmt: skip
    rows = ranked(_shown(comparison, only_changed))
    if rows:
        lines.append("")
    for pair in rows:
        text = f"{symbols[pair.status]} {pair_name(pair)}  [{status_text(pair)}]"
        if details := change_text(pair):
            text += f"  {details}"
        lines.append(text)
        lines += [f"    note: {note}" for note in pair.notes]
    if comparison.values:
        lines.append("")
    for value in comparison.values:
        lines.append(f"value {value.key}: {value.a or '(absent)'} → {value.b or '(absent)'}")
    lines += [f"tied weights: {change.text()}" for change in comparison.sharing]
    return lines


def _facts(entry) -> dict | None:
    if entry is None:
        return None
    info = entry.info
    return {
        "key": entry.key,
        "file_key": entry.file_key,
        "shape": None if info.shape is None else list(info.shape),
        "dtype": info.dtype,
        "layout": info.layout,
        "stride": None if info.stride is None else list(info.stride),
    }


def _json_number(value: float | None):
    if value is None or math.isnan(value):
        return None
    return "inf" if math.isinf(value) else value


def pair_json(pair: TensorPair) -> dict:
    values = pair.values
    data = {
        "key": pair.key,
        "status": pair.status,
        "renamed": pair.renamed and pair.matched_by != "picked",
        "matched_by": pair.matched_by,
        "a": _facts(pair.a),
        "b": _facts(pair.b),
        "changes": pair.facts_changed(),
        "bitwise_equal": pair.bitwise_equal,
        "notes": list(pair.notes),
    }
    if values is not None:
        data |= {
            "elements": values.elements,
            "changed_elements": values.changed,
            "changed_fraction": values.changed_fraction,
            "outside_tolerance": values.outside_tolerance,
            "max_abs_diff": _json_number(values.max_abs),
            "mean_abs_diff": _json_number(values.mean_abs),
            "relative_change": _json_number(values.relative),
            "cosine_similarity": _json_number(values.cosine),
            "nan": [values.nan_a, values.nan_b],
            "inf": [values.inf_a, values.inf_b],
            "nan_appeared": values.nan_appeared,
            "inf_appeared": values.inf_appeared,
        }
    return data


def comparison_json(comparison: Comparison, only_changed: bool = False) -> dict:
    def side(s):
        return {"label": s.label, "path": s.path, "format": s.format_label}

    return {
        "a": side(comparison.side_a),
        "b": side(comparison.side_b),
        "equal": comparison.equal,
        "atol": comparison.atol,
        "rtol": comparison.rtol,
        "cancelled": comparison.cancelled,
        "error": comparison.error,
        "counts": {
            **{status: comparison.count(status) for status in STATUS_WORDS},
            "renamed": comparison.renames,
            "values_differ": len(comparison.values),
        },
        "summary": summary_lines(comparison),
        "tensors": [pair_json(p) for p in _shown(comparison, only_changed)],
        "values": [
            {
                "key": v.key,
                "a": v.a,
                "b": v.b,
                "file_key_a": v.file_key_a,
                "file_key_b": v.file_key_b,
            }  # fmt: skip
            for v in comparison.values
        ],
        "tied_weights": [
            {
                "change": c.kind,
                "keys_a": list(c.keys_a),
                "keys_b": list(c.keys_b),
                "text": c.text(),
            }  # fmt: skip
            for c in comparison.sharing
        ],
    }
