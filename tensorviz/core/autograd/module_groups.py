"""Which nn.Module made each backward node, and the graph with each module collapsed to one node.

The forward that built the graph ran with module tagging on (core/forward/module_tags.py: the
Script area, the presets, the Architecture area's recordings): each backward node carries, in
its grad_fn.metadata, the module calls that were open when it was made — `(("transformer",
"GPT2Model"), ("transformer.h.5", "GPT2Block"), ("transformer.h.5.attn", "GPT2Attention"))`.
Grouping at level 1 gathers nodes by the first of them, level 2 by the second, and so on, so the
blocks of a ModuleList (`h.0 … h.11`, never called themselves) are groups of their own at the
level below their parent. A leaf made by no tagged forward is grouped by its dotted parameter
name (`0.weight` → `0`)."""

from __future__ import annotations

import networkx as nx

from tensorviz.core.autograd.graph import AutogradGraph


def module_chain(data: dict) -> tuple[tuple[str, str], ...]:
    """The (qualified name, class) of the module calls a node was made in, outermost first."""
    chain = data.get("module", ())
    if not chain and data["kind"] == "accumulate_grad" and "." in data["label"]:
        return ((data["label"].rsplit(".", 1)[0], ""),)
    return chain


def has_modules(graph: AutogradGraph) -> bool:
    return any(module_chain(d) for _, d in graph.graph.nodes(data=True))


def module_levels(graph: AutogradGraph) -> int:
    """How many levels of modules the graph's nodes were made in (0: none)."""
    return max((len(module_chain(d)) for _, d in graph.graph.nodes(data=True)), default=0)


def module_of_nodes(graph: AutogradGraph, level: int = 1) -> dict[str, tuple[str, str]]:
    """Node id → (qualified name, class) of its module at `level` (its innermost one when it
    was made less deep), for nodes made in a module."""
    groups = {}
    for node, data in graph.graph.nodes(data=True):
        chain = module_chain(data)
        if chain:
            groups[node] = chain[min(level, len(chain)) - 1]
    return groups


def collapse_modules(
    graph: nx.DiGraph, groups: dict[str, tuple[str, str]]
) -> tuple[nx.DiGraph, dict[str, str]]:
    """The graph with each module's nodes merged into one node "module:NAME"; returns it and
    member → shown node for every original node. A module node's output shapes are those of
    its members whose edges leave it."""
    shown_as = {n: f"module:{groups[n][0]}" if n in groups else n for n in graph.nodes}
    collapsed = nx.DiGraph()
    for node, data in graph.nodes(data=True):
        target = shown_as[node]
        if target == node:
            collapsed.add_node(node, **data)
            continue
        if target not in collapsed:
            name, class_name = groups[node]
            collapsed.add_node(
                target,
                kind="module",
                label=f"{name} · {class_name}" if class_name else name,
                op=class_name,
                shape=None,
                output_shapes=(),
                saved=(),
                cut_inputs=(),
                members=[],
            )
        collapsed.nodes[target]["members"].append(node)
    for source, target, data in graph.edges(data=True):
        a, b = shown_as[source], shown_as[target]
        if a == b or collapsed.has_edge(a, b):
            continue
        if a != source:  # leaving a module: what its member produced leaves with it
            produced = graph.nodes[source].get("output_shapes", ()) or (
                (graph.nodes[source]["shape"],) if graph.nodes[source].get("shape") else ()
            )
            shapes = collapsed.nodes[a]["output_shapes"]
            collapsed.nodes[a]["output_shapes"] = shapes + tuple(
                s for s in produced if s not in shapes
            )
        nrs = data["output_nrs"] if a == source else (0,)
        collapsed.add_edge(a, b, output_nr=nrs[0], input_nrs=data["input_nrs"], output_nrs=nrs)
    return collapsed, shown_as
