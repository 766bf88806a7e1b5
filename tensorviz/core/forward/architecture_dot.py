"""Graphviz DOT text of the Architecture view as shown: each open frame a cluster, closed boxes
and folded repeats as nodes, every edge labelled with its tensor's shape (we never run dot)."""

from __future__ import annotations

from tensorviz.core.forward.nested_layout import ArchitectureLayout
from tensorviz.core.graph_layout.dot_strings import dot_id, dot_label

FILLS = {
    "op": "#e3edf7",
    "module": "#e4dcf3",
    "fold": "#d9ccf0",
    "input": "#3d5a80",
    "output": "#3d5a80",
    "constant": "#dfe3ea",
    "failed": "#f6c7c3",
    "port": "#8a94a6",
}


def architecture_dot(picture: ArchitectureLayout) -> str:
    graph = picture.graph
    members: dict[str | None, list[str]] = {}
    for node in graph.nodes:
        members.setdefault(picture.frame_of_item.get(node), []).append(node)
    children: dict[str | None, list] = {}
    for frame in picture.frames:
        children.setdefault(picture.frame_of_item.get(frame.call), []).append(frame)
    lines = [
        "digraph architecture {",
        "  compound=true;",
        '  node [shape=box, style="filled,rounded", fontname=Helvetica];',
    ]

    def write(container, indent: str) -> None:
        for node in members.get(container, ()):
            data = graph.nodes[node]
            label = dot_label(data["label"], *([data["detail"]] if data.get("detail") else []))
            shape = ", shape=point, width=0.1" if data["kind"] == "port" else ""
            font = ", fontcolor=white" if data["kind"] in ("input", "output") else ""
            lines.append(
                f"{indent}{dot_id(node)} [label={label}, "
                f"fillcolor={dot_id(FILLS.get(data['kind'], '#ffffff'))}{shape}{font}];"
            )
        for frame in children.get(container, ()):
            lines.append(f"{indent}subgraph {dot_id('cluster_' + frame.call)} {{")
            lines.append(f"{indent}  label={dot_label(frame.title)}; style=rounded;")
            write(frame.call, indent + "  ")
            lines.append(f"{indent}}}")

    write(None, "  ")
    for source, target in graph.edges:
        tensors = picture.tensors.get((source, target), [])
        label = tensors[0].text() if tensors else ""
        lines.append(f"  {dot_id(source)} -> {dot_id(target)} [label={dot_label(label)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
