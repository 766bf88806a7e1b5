"""Paints one moment of a recorded backward onto the graph's items: visited and current nodes,
each leaf's .grad as of that moment, and the gradients sent along the edges so far."""

from __future__ import annotations

import networkx as nx

from tensorviz.core.autograd.backward_steps import BackwardVisit, edge_gradients
from tensorviz.core.autograd.graph import AutogradGraph
from tensorviz.core.graph_layout.layered_layout import node_detail
from tensorviz.ui.autograd.graph_view import GraphView


def leaf_grad_text(seen: list[BackwardVisit], node: str) -> str:
    """What a leaf node shows: its .grad as of the last visit seen."""
    visit = next((v for v in reversed(seen) if v.node == node), None)
    grad = visit.leaf_grad if visit else None
    return f"grad = {grad.short_text()}" if grad is not None else ""


def paint_step(
    view: GraphView,
    graph: AutogradGraph,
    seen: list[BackwardVisit],
    current: BackwardVisit | None,
    zeroed: bool = False,
    shown: nx.DiGraph | None = None,
    shown_as: dict[str, str] | None = None,
    items: tuple[list, list] | None = None,
) -> None:
    """`seen`: the visits stepped through so far; `zeroed`: leaves' grads were just zeroed.
    `shown`/`shown_as`: the graph drawn when modules are collapsed, and where each node went.
    `items`: (node items, edge items) to paint, when not all the view has built."""
    shown = graph.graph if shown is None else shown
    shown_as = shown_as or {n: n for n in graph.graph}
    visited = {shown_as[v.node] for v in seen}
    current_node = shown_as[current.node] if current is not None else None
    node_items = view.node_items.items() if items is None else [(i.node, [i]) for i in items[0]]
    for node, built in node_items:
        data = shown.nodes[node]
        for item in built:
            item.set_state(visited=node in visited, current=node == current_node)
            if data["kind"] == "accumulate_grad":
                grad_text = "" if zeroed else leaf_grad_text(seen, node)
                if zeroed and graph.functions[node].variable.grad is not None:
                    grad_text = "grad = 0"
                item.set_detail(grad_text or node_detail(data))
    gradients = {}
    for (source, target), grad in edge_gradients(graph, seen).items():
        gradients[(shown_as[source], shown_as[target])] = grad
    edge_items = view.edge_items.values() if items is None else items[1]
    for item in edge_items:
        source, target = item.route.source, item.route.target
        grad = gradients.get((source, target))
        active = current_node == target and grad is not None
        item.set_gradient(f"∂ {grad.short_text()}" if grad else "", active)
