"""Which nn.Module made each backward node, and the graph with each module collapsed to one node.

Autograd numbers every backward node it creates (`_sequence_nr`, increasing per thread).
Forward hooks bracket each child module's forward with two fresh sequence numbers, so a node
belongs to the child whose bracket holds its number; a parameter's AccumulateGrad belongs to
the child its dotted name starts with."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import networkx as nx
import torch

from tensorviz.core.autograd.graph import AutogradGraph


@dataclass(frozen=True)
class ModuleSpan:
    name: str  # the child's name in its parent ("0", "encoder", ...)
    type_name: str  # "Linear", "ReLU", ...
    start: int  # sequence numbers bracketing its forward
    end: int
    output_shape: tuple[int, ...] | None = None


def _sequence_mark() -> int:
    with torch.enable_grad():
        return (torch.zeros((), requires_grad=True) * 1).grad_fn._sequence_nr()


@contextmanager
def record_module_spans(module: torch.nn.Module) -> Iterator[list[ModuleSpan]]:
    """Run a forward inside this block; the list fills with one span per child call."""
    spans: list[ModuleSpan] = []
    starts: dict[str, int] = {}
    handles = []
    for name, child in module.named_children():

        def before(_module, _args, name=name) -> None:
            starts[name] = _sequence_mark()

        def after(_module, _args, output, name=name, child=child) -> None:
            shape = tuple(output.shape) if isinstance(output, torch.Tensor) else None
            spans.append(
                ModuleSpan(name, type(child).__name__, starts[name], _sequence_mark(), shape)
            )

        handles.append(child.register_forward_pre_hook(before))
        handles.append(child.register_forward_hook(after))
    try:
        yield spans
    finally:
        for handle in handles:
            handle.remove()


def module_of_nodes(graph: AutogradGraph, spans: list[ModuleSpan]) -> dict[str, str]:
    """Node id → the child module's name, for nodes that belong to one."""
    names = {span.name for span in spans}
    groups: dict[str, str] = {}
    for node, fn in graph.functions.items():
        data = graph.graph.nodes[node]
        if data["kind"] == "accumulate_grad":
            prefix = data["label"].split(".", 1)[0]
            if prefix in names and "." in data["label"]:
                groups[node] = prefix
            continue
        number = fn._sequence_nr()
        for span in spans:
            if span.start < number < span.end:
                groups[node] = span.name
                break
    return groups


def collapse_modules(
    graph: nx.DiGraph, groups: dict[str, str], spans: list[ModuleSpan]
) -> tuple[nx.DiGraph, dict[str, str]]:
    """The graph with each module's nodes merged into one node "module:NAME"; returns it and
    member → shown node for every original node."""
    by_name = {span.name: span for span in spans}
    shown_as = {n: f"module:{groups[n]}" if n in groups else n for n in graph.nodes}
    collapsed = nx.DiGraph()
    for node, data in graph.nodes(data=True):
        target = shown_as[node]
        if target == node:
            collapsed.add_node(node, **data)
            continue
        if target not in collapsed:
            span = by_name[groups[node]]
            shapes = (span.output_shape,) if span.output_shape is not None else ()
            collapsed.add_node(
                target,
                kind="module",
                label=f"{span.name} · {span.type_name}",
                op=span.type_name,
                shape=None,
                output_shapes=shapes,
                saved=(),
                cut_inputs=(),
                members=[],
            )
        collapsed.nodes[target]["members"].append(node)
    for source, target, data in graph.edges(data=True):
        a, b = shown_as[source], shown_as[target]
        if a == b or collapsed.has_edge(a, b):
            continue
        nrs = data["output_nrs"] if a == source else (0,)
        collapsed.add_edge(a, b, output_nr=nrs[0], input_nrs=data["input_nrs"], output_nrs=nrs)
    return collapsed, shown_as
