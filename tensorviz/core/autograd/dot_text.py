"""Graphviz DOT text of an autograd graph, for people who want it (we never run graphviz)."""

from __future__ import annotations

import networkx as nx


def _dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


DOT_FILL = {"tensor": "#3d5a80", "backward": "#e3edf7", "accumulate_grad": "#cdebd6"}


def to_dot(graph: nx.DiGraph) -> str:
    """Graphviz DOT text of the graph (for people who want it; we never run graphviz)."""
    lines = ["digraph autograd {", "  node [shape=box, style=filled, fontname=Helvetica];"]
    for node_id, data in graph.nodes(data=True):
        shape = data.get("shape")
        label = data["label"] + (f"\\n{list(shape)}" if shape is not None else "")
        fill = "#f9d9b8" if data.get("rewrite") else DOT_FILL[data["kind"]]
        font = "white" if data["kind"] == "tensor" else "black"
        lines.append(
            f"  {_dot_quote(node_id)} [label={_dot_quote(label)}, fillcolor={_dot_quote(fill)}, "
            f"fontcolor={font}];"
        )
    for source, target, data in graph.edges(data=True):
        outputs = ",".join(str(nr) for nr in sorted(set(data["output_nrs"])))
        lines.append(
            f"  {_dot_quote(source)} -> {_dot_quote(target)} [label={_dot_quote(outputs)}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"
