"""Each backward node's local derivative in words and numbers, so the chain rule is explained,
not only numbered: `PowBackward0: ∂(x²)/∂x = 2·x = 4 at x = 2`.

The numbers come from the node's real saved tensors (derivative_rules.py). They must be read
before a backward without retain_graph frees them: record_backward reads them first, and a
node read after that says so (`freed`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tensorviz.core.autograd.derivative_rules import rules_of
from tensorviz.core.autograd.grad_summary import GradSummary
from tensorviz.core.autograd.graph import AutogradGraph
from tensorviz.core.translation import _

MAX_SYMBOL_LENGTH = 8  # a leaf's own name stands in the formula when it is this short


@dataclass(frozen=True)
class LocalDerivative:
    input_nr: int  # the next_functions position it is the derivative for
    symbol: str  # what the formula calls that input ("x", "a", "w")
    formula: str  # "∂(x²)/∂x = 2·x"
    words: str  # a LaterText: English as a str, translation.shown() where it is displayed
    value: GradSummary | None  # the element-wise derivative's values; None for a rule (A @ B)
    at: GradSummary | None = None  # the input value it was taken at, when the node saved it

    def text(self) -> str:
        """ "∂(x²)/∂x = 2·x = 4 at x = 2" — the formula, then its numbers."""
        numbers = f" = {self.value.text()}" if self.value is not None else ""
        where = (
            _(" at {symbol} = {value}").format(symbol=self.symbol, value=self.at.text())
            if self.at is not None
            else ""
        )
        return f"{self.formula}{numbers}{where}"


@dataclass(frozen=True)
class NodeDerivatives:
    """What one node's details show about its local derivative."""

    derivatives: tuple[LocalDerivative, ...] = ()
    status: str = "explained"  # "explained" | "unknown" (an op we do not explain) | "freed"


def _default_symbols(count: int) -> list[str]:
    return ["x"] if count == 1 else ["a", "b", "c", "d"][:count] + ["e"] * max(0, count - 4)


def input_symbols(graph: AutogradGraph, node: str) -> list[str]:
    """The name each input goes by in a formula: a leaf's short name (x, w) where there is one,
    `c` for a constant (an input that needs no grad), otherwise a, b (or x for one input)."""
    fn = graph.functions[node]
    inputs = fn.next_functions
    symbols = _default_symbols(len(inputs))
    for position, (source, _unused) in enumerate(inputs):
        if source is None:
            symbols[position] = "c"
            continue
        source_id = graph.node_of_fn.get(id(source))
        data = graph.graph.nodes[source_id] if source_id in graph.graph else {}
        label = data.get("label", "")
        if data.get("kind") == "accumulate_grad" and label.isidentifier():
            if len(label) <= MAX_SYMBOL_LENGTH and label not in symbols:
                symbols[position] = label
    return symbols


def derivatives_of(fn, symbols: list[str]) -> NodeDerivatives:
    """The local derivatives of a backward node, read from its saved tensors now."""
    try:
        rules = rules_of(fn, symbols)
    except RuntimeError as error:  # freed by a backward without retain_graph
        if "freed" in str(error) or "second time" in str(error):
            return NodeDerivatives(status="freed")
        raise
    if rules is None:
        return NodeDerivatives(status="unknown")
    return NodeDerivatives(
        tuple(
            LocalDerivative(
                rule.input_nr,
                symbols[rule.input_nr] if rule.input_nr < len(symbols) else "x",
                rule.formula,
                rule.words,
                GradSummary.of(rule.local),
                GradSummary.of(rule.at),
            )
            for rule in rules
        )
    )


def node_derivatives(graph: AutogradGraph, node: str) -> NodeDerivatives:
    fn = graph.functions.get(node)
    if fn is None or type(fn).__name__ == "AccumulateGrad":
        return NodeDerivatives(status="unknown")
    return derivatives_of(fn, input_symbols(graph, node))


def graph_derivatives(graph: AutogradGraph, limit: int) -> dict[str, NodeDerivatives]:
    """Every backward node's derivatives, read before a backward frees them (up to `limit`
    nodes: a big model's graph is read on demand instead)."""
    nodes = graph.nodes_of_kind("backward")
    if len(nodes) > limit:
        return {}
    return {node: node_derivatives(graph, node) for node in nodes}
