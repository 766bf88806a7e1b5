"""Graphviz DOT text of an autograd graph, for people who want it (we never run graphviz)."""

from __future__ import annotations

import networkx as nx

from tensorviz.core.graph_layout.dot_strings import dot_id, dot_label

DOT_FILL = {"tensor": "#3d5a80", "backward": "#e3edf7", "accumulate_grad": "#cdebd6"}


def to_dot(graph: nx.DiGraph) -> str:
    """Graphviz DOT text of the graph (for people who want it; we never run graphviz)."""
    lines = ["digraph autograd {", "  node [shape=box, style=filled, fontname=Helvetica];"]
    for node_id, data in graph.nodes(data=True):
        shape = data.get("shape")
        label = dot_label(data["label"], *([str(list(shape))] if shape is not None else []))
        fill = "#f9d9b8" if data.get("rewrite") else DOT_FILL[data["kind"]]
        font = "white" if data["kind"] == "tensor" else "black"
        lines.append(
            f"  {dot_id(node_id)} [label={label}, fillcolor={dot_id(fill)}, fontcolor={font}];"
        )
    for source, target, data in graph.edges(data=True):
        outputs = ",".join(str(nr) for nr in sorted(set(data["output_nrs"])))
        lines.append(f"  {dot_id(source)} -> {dot_id(target)} [label={dot_label(outputs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
