"""A comparison told per layer: rows grouped by module prefix (a repeated block "h.3" is one
layer), each layer's relative change ‖Δ‖/‖A‖ over its tensors (what the bar chart shows), and one
summary line per subtree, with runs of numbered blocks folded into a range:
"transformer.h.0–h.11: 144 tensors, 143 changed, max relative change 2.1 %; wte unchanged".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tensorviz.core.diff.comparison import Comparison, TensorPair
from tensorviz.core.files.text import joined
from tensorviz.core.translation import _, ngettext


def layer_of(key: str) -> str:
    """The module prefix a key is grouped under: up to the first block number
    ("transformer.h.3.attn.c_attn.weight" → "transformer.h.3"), else the parameter's module."""
    parts = key.split(".")
    for index, part in enumerate(parts[:-1]):
        if part.isdigit() and index > 0:
            return ".".join(parts[: index + 1])
    return ".".join(parts[:-1]) or key


@dataclass
class LayerChange:
    name: str
    pairs: list[TensorPair]

    def count(self, status: str) -> int:
        return sum(p.status == status for p in self.pairs)

    @property
    def renamed(self) -> int:
        return sum(p.counts_as_rename for p in self.pairs)

    @property
    def relative(self) -> float | None:
        """‖Δ‖/‖A‖ over the layer's compared tensors, as if they were one vector."""
        compared = [p.values for p in self.pairs if p.values is not None and p.values.finite]
        if not compared:
            return None
        delta = sum(v.sum_sq_delta for v in compared)
        base = sum(v.sum_sq_a for v in compared)
        if base > 0:
            return math.sqrt(delta) / math.sqrt(base)
        return 0.0 if delta == 0 else math.inf

    def largest(self) -> TensorPair | None:
        """The pair with the largest relative change."""
        ranked = [p for p in self.pairs if p.relative_change is not None]
        return max(ranked, key=lambda p: p.relative_change, default=None)


def layer_changes(comparison: Comparison) -> list[LayerChange]:
    """Layers in the order their first row appears."""
    layers: dict[str, LayerChange] = {}
    for pair in comparison.pairs:
        name = layer_of(pair.key)
        layers.setdefault(name, LayerChange(name, [])).pairs.append(pair)
    return list(layers.values())


def percent(fraction: float | None) -> str:
    if fraction is None:
        return "—"
    if math.isinf(fraction):
        return _("∞ (A is all zeros)")
    value = fraction * 100
    if value == 0:
        return "0 %"
    return f"{value:.3g} %" if value >= 0.001 else f"{value:.1e} %"


def summary_lines(comparison: Comparison) -> list[str]:
    """One line per subtree: its layers (numbered runs folded) as fragments joined by '; '."""
    layers = layer_changes(comparison)
    base = common_prefix([layer.name for layer in layers])
    lines: dict[str, list[str]] = {}
    for run in _runs(layers):
        name = run[0].name if len(run) == 1 else _range_name(run)
        rest = name[len(base) :]
        head = base + rest.split(".")[0]
        fragments = lines.setdefault(head, [])
        shown = name if not fragments else name[len(head) + 1 :] or name
        fragments.append(layer_summary(shown, [p for layer in run for p in layer.pairs]))
    return [joined(fragments) for fragments in lines.values()]


def common_prefix(names: list[str]) -> str:
    """The dotted prefix every layer shares ("state_dict.model."), or ""."""
    if len(names) < 2:
        return ""
    split = [name.split(".") for name in names]
    common = []
    for parts in zip(*split, strict=False):
        if len(set(parts)) != 1:
            break
        common.append(parts[0])
    if any(len(parts) <= len(common) for parts in split):
        common = common[:-1]  # a layer must keep a name of its own
    return "".join(f"{part}." for part in common)


def _block(name: str) -> tuple[str, int] | None:
    parent, _dot, number = name.rpartition(".")
    return (parent, int(number)) if parent and number.isdigit() else None


def _runs(layers: list[LayerChange]) -> list[list[LayerChange]]:
    """Consecutive numbered blocks of one parent ("h.0", "h.1", …) as one run each."""
    runs: list[list[LayerChange]] = []
    for layer in layers:
        block = _block(layer.name)
        last = _block(runs[-1][-1].name) if runs else None
        if block and last and block[0] == last[0] and block[1] == last[1] + 1:
            runs[-1].append(layer)
        else:
            runs.append([layer])
    return runs


def _range_name(run: list[LayerChange]) -> str:
    parent, first = _block(run[0].name)
    last = _block(run[-1].name)[1]
    leaf = parent.rpartition(".")[2]
    return f"{parent}.{first}–{leaf}.{last}"


def status_words() -> dict[str, str]:
    """A row's status in words (the keys are comparison.STATUSES)."""
    return {
        "changed": _("changed"),
        "unchanged": _("unchanged"),
        "only_a": _("only in A"),
        "only_b": _("only in B"),
        "not_compared": _("not compared"),
    }


def layer_summary(name: str, pairs: list[TensorPair]) -> str:
    counts = {status: sum(p.status == status for p in pairs) for status in
              ("changed", "unchanged", "only_a", "only_b", "not_compared")}  # fmt: skip
    renamed = sum(p.counts_as_rename for p in pairs)
    n = len(pairs)
    tensors = ngettext("{n} tensor", "{n} tensors", n).format(n=n)
    if counts["unchanged"] == n:
        if n == 1:
            text = _("{name} unchanged").format(name=name)
        else:
            text = _("{name} unchanged ({tensors})").format(name=name, tensors=tensors)
        return _("{summary}, {n} renamed").format(summary=text, n=renamed) if renamed else text
    if counts["only_a"] == n:
        return _("{name}: only in A ({tensors})").format(name=name, tensors=tensors)
    if counts["only_b"] == n:
        return _("{name}: only in B ({tensors})").format(name=name, tensors=tensors)
    parts = [tensors]
    # a tensor that was all zeros in A (a bias, say) has no finite relative change
    figures = [p.relative_change for p in pairs if p.relative_change is not None]
    finite = [f for f in figures if math.isfinite(f)]
    if counts["changed"] and figures:
        parts.append(
            _("{n} changed, max relative change {percent}").format(
                n=counts["changed"], percent=percent(max(finite or figures))
            )
        )
    else:
        parts.append(_("{n} changed").format(n=counts["changed"]))
    for status, words in (
        ("only_a", _("{n} only in A")),
        ("only_b", _("{n} only in B")),
        ("not_compared", _("{n} not compared")),
    ):
        if counts[status]:
            parts.append(words.format(n=counts[status]))
    if renamed:
        parts.append(_("{n} renamed").format(n=renamed))
    return _("{name}: {parts}").format(name=name, parts=joined(parts, items=True))
