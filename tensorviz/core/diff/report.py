"""The words and JSON of a comparison (one source for `tensorviz diff` and the Compare area):
the overall line, the status of a row, its figures, the text report and the JSON report."""

from __future__ import annotations

import math

from tensorviz.core.diff.comparison import STATUSES, Comparison, TensorPair
from tensorviz.core.diff.summaries import percent, status_words, summary_lines
from tensorviz.core.files.text import joined
from tensorviz.core.translation import _, ngettext


def figure(value: float | None) -> str:
    if value is None:
        return "—"
    if math.isinf(value) or math.isnan(value):
        return str(value)
    return "0" if value == 0 else f"{value:.4g}"


def status_text(pair: TensorPair) -> str:
    words = status_words()[pair.status]
    if pair.matched_by == "tied":
        text = (_("{status}, tied to {key} (A saves it once)") if pair.key == pair.b.key
                else _("{status}, tied to {key} (B saves it once)"))  # fmt: skip
        partner = pair.a.key if pair.key == pair.b.key else pair.b.key
        return text.format(status=words, key=partner)
    if pair.counts_as_rename:
        renamed = (
            _("{status}, renamed (identical bytes)")
            if pair.matched_by == "bytes"
            else _("{status}, renamed (prefix)")
        )
        return renamed.format(status=words)
    return words


def pair_name(pair: TensorPair) -> str:
    """'key', or 'old → new' for a rename; an optimizer's state with its parameter's name:
    'optimizer.state.15.exp_avg_sq (of transformer.h.2.mlp.c_proj.weight)'."""
    name = pair.key
    if pair.renamed and pair.matched_by != "tied":
        name = f"{pair.a.key} → {pair.b.key}"
    parameters = [e.parameter for e in (pair.a, pair.b) if e is not None and e.parameter]
    if parameters:
        of = parameters[0] if len(set(parameters)) == 1 else " → ".join(parameters)
        name = _("{key} (of {parameter})").format(key=name, parameter=of)
    return name


def stored_in(pair: TensorPair) -> str:
    """The files a pair's entries are stored in, when a side is a folder or shards: 'A in
    model.safetensors, B in pytorch_model-00001-of-00002.bin'; "" otherwise."""
    parts = []
    for side, entry in (("A", pair.a), ("B", pair.b)):
        if entry is not None and entry.source:
            text = _("A in {file}") if side == "A" else _("B in {file}")
            parts.append(text.format(file=entry.source))
    return joined(parts, items=True)


def weights_first(pair: TensorPair) -> int:
    """0 for a weight, 1 for an optimizer's state: weights are listed first."""
    return int(any(e is not None and e.optimizer_state for e in (pair.a, pair.b)))


def change_text(pair: TensorPair) -> str:
    """What changed in one phrase: facts, then the values' figures."""
    parts = pair.facts_changed()
    values = pair.values
    if values is not None and values.changed:
        parts.append(
            _("{changed} of {elements} elements changed ({percent})").format(
                changed=f"{values.changed:,}",
                elements=f"{values.elements:,}",
                percent=percent(values.changed_fraction),
            )
        )
        if values.max_abs is not None:
            parts.append(
                _("max |Δ| {max}, mean |Δ| {mean}").format(
                    max=figure(values.max_abs), mean=figure(values.mean_abs)
                )
            )
        if values.relative is not None:
            parts.append(f"‖Δ‖/‖A‖ {percent(values.relative)}")
        if values.cosine is not None:
            parts.append(_("cosine {value}").format(value=f"{values.cosine:.9g}"))
        parts += appeared_texts(values)
    return joined(parts)


def appeared_texts(values) -> list[str]:
    """'3 NaN appeared', '1 Inf appeared': values that were finite in A and are not in B."""
    texts = []
    if values.nan_appeared:
        texts.append(_("{n} NaN appeared").format(n=f"{values.nan_appeared:,}"))
    if values.inf_appeared:
        texts.append(_("{n} Inf appeared").format(n=f"{values.inf_appeared:,}"))
    return texts


def overall_line(comparison: Comparison) -> str:
    both = [p for p in comparison.pairs if p.a is not None and p.b is not None]
    counts = {
        "both": len(both),
        "changed": comparison.count("changed"),
        "unchanged": comparison.count("unchanged"),
    }
    if not_compared := comparison.count("not_compared"):
        head = _(
            "{both} tensors in both: {changed} changed, {unchanged} unchanged, "
            "{not_compared} not compared"
        ).format(not_compared=not_compared, **counts)
    else:
        head = _("{both} tensors in both: {changed} changed, {unchanged} unchanged").format(
            **counts
        )
    extra = []
    if count := comparison.count("only_a"):
        extra.append(_("{n} only in A").format(n=count))
    if count := comparison.count("only_b"):
        extra.append(_("{n} only in B").format(n=count))
    if comparison.renames:
        extra.append(_("{n} renamed").format(n=comparison.renames))
    if tied := sum(p.matched_by == "tied" for p in comparison.pairs):
        saved_once = ngettext(
            "{n} tied weight saved once on one side",
            "{n} tied weights saved once on one side",
            tied,
        )
        extra.append(saved_once.format(n=tied))
    if comparison.values:
        extra.append(_("{n} plain value(s) differ").format(n=len(comparison.values)))
    if comparison.sharing:
        extra.append(
            _("{n} tied-weight group(s) split or merged").format(n=len(comparison.sharing))
        )
    for side, file, count in comparison.beside_one_side:
        text = (
            ngettext("{file} only in A ({n} value, not compared)",
                     "{file} only in A ({n} values, not compared)", count) if side == "A"
            else ngettext("{file} only in B ({n} value, not compared)",
                          "{file} only in B ({n} values, not compared)", count)
        )  # fmt: skip
        extra.append(text.format(file=file, n=count))
    text = joined([head, *extra])
    if comparison.cancelled:
        return _("Cancelled — found so far: {found}").format(found=text)
    if comparison.error:
        return _("Stopped: {error} Found so far: {found}").format(
            error=comparison.error, found=text
        )
    if comparison.equal_except_prefixes:
        prefixes_a, prefixes_b = comparison.wrapper_prefixes()
        where = [_("{prefixes} in A").format(prefixes=", ".join(prefixes_a))] if prefixes_a else []
        if prefixes_b:
            where.append(_("{prefixes} in B").format(prefixes=", ".join(prefixes_b)))
        verdict = (
            _("{found}. Verdict: equal within atol {atol}, rtol {rtol}, except key prefixes "
              "({where}).") if comparison.atol or comparison.rtol
            else _("{found}. Verdict: equal except key prefixes ({where}).")
        )  # fmt: skip
        return verdict.format(
            found=text,
            atol=f"{comparison.atol:g}",
            rtol=f"{comparison.rtol:g}",
            where=joined(where, items=True),
        )
    if comparison.atol or comparison.rtol:
        verdict = (
            _("{found}. Verdict: equal within atol {atol}, rtol {rtol}.")
            if comparison.equal
            else _("{found}. Verdict: they differ within atol {atol}, rtol {rtol}.")
        )
    else:
        verdict = (
            _("{found}. Verdict: equal.")
            if comparison.equal
            else _("{found}. Verdict: they differ.")
        )
    return verdict.format(found=text, atol=f"{comparison.atol:g}", rtol=f"{comparison.rtol:g}")


def _shown(comparison: Comparison, only_changed: bool) -> list[TensorPair]:
    return [p for p in comparison.pairs if not (only_changed and p.status == "unchanged"
                                                and not comparison.key_changed(p))]  # fmt: skip


def ranked(pairs: list[TensorPair]) -> list[TensorPair]:
    """Weights, then optimizer state; each largest relative change first, rows without a figure
    after, in their order."""
    return sorted(pairs, key=lambda p: (weights_first(p), -(p.relative_change or 0.0)))


def report_lines(comparison: Comparison, only_changed: bool = False) -> list[str]:
    """The text `tensorviz diff` prints."""
    a, b = comparison.side_a, comparison.side_b
    lines = [_("A: {label} ({format})").format(label=a.label, format=a.format_label),
             _("B: {label} ({format})").format(label=b.label, format=b.format_label),
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
        lines += ["    " + _("note: {note}").format(note=note) for note in pair.notes]
    if comparison.values:
        lines.append("")
    lines += value_lines(comparison)
    return lines


def value_lines(comparison: Comparison, most: int | None = None) -> list[str]:
    """Plain values that differ (the first `most`), then tied weights that split or merged."""
    absent = _("(absent)")
    lines = [
        _("value {key}: {a} → {b}").format(key=v.key, a=v.a or absent, b=v.b or absent)
        for v in comparison.values[:most]
    ]
    lines += [
        _("tied weights: {change}").format(change=change.text()) for change in comparison.sharing
    ]
    return lines


def _facts(entry) -> dict | None:
    if entry is None:
        return None
    info = entry.info
    return {
        "key": entry.key,
        "file_key": entry.file_key,
        "file": entry.source or None,
        "parameter": entry.parameter or None,
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
        "renamed": pair.counts_as_rename,
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
        "equal_except_prefixes": comparison.equal_except_prefixes,
        "strict_keys": comparison.strict_keys,
        "atol": comparison.atol,
        "rtol": comparison.rtol,
        "cancelled": comparison.cancelled,
        "error": comparison.error,
        "counts": {
            **{status: comparison.count(status) for status in STATUSES},
            "renamed": comparison.renames,
            "values_differ": len(comparison.values),
            "tied": sum(p.matched_by == "tied" for p in comparison.pairs),
        },
        "not_compared_beside": [
            {"side": side, "file": file, "values": count}
            for side, file, count in comparison.beside_one_side
        ],
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
