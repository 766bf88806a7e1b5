"""A layered (Sugiyama-style) layout of an autograd graph, our own code: no graphviz.

1. hubs: a source node read by many consumers (a shared weight in an unrolled RNN) is drawn as
   one small stub above each consumer instead of one node with edges across the whole picture;
2. ranks: each node sits one layer above its deepest consumer, so leaves sit right above the
   operation that reads them and the root tensor is at the bottom; long edges get dummy points;
3. order: barycentre sweeps and adjacent swaps reduce edge crossings (layer_ordering.py);
4. coordinates: each node is pulled toward its neighbours, then pushed apart to its width.
Deterministic: ties break on the graph's node order, never on hashes or ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from tensorviz.core.gc_pause import gc_paused
from tensorviz.core.layer_ordering import Ordering, reduce_crossings

HUB_MIN_USES = 4
LAYER_GAP = 74.0
NODE_HEIGHT = 34.0
NODE_GAP = 18.0
DUMMY_WIDTH = 6.0
CHAR_WIDTH = 7.0
PORT_GAP = 14.0
HUGE_GRAPH = 10_000  # nodes and bend points: past this, fewer sweeps (ordering and x)


@dataclass(frozen=True)
class PlacedNode:
    key: str  # layout key: the node id, or "node@k" for the k-th stub of a hub
    node: str  # the graph node it shows
    x: float  # centre
    y: float  # centre
    width: float
    height: float
    stub: bool = False


@dataclass(frozen=True)
class EdgeRoute:
    source: str  # graph node ids, input → consumer
    target: str
    points: tuple[tuple[float, float], ...]  # from the source's bottom to the target's top
    output_nrs: tuple[int, ...] = (0,)  # which outputs of the source the target reads


@dataclass
class GraphLayout:
    nodes: dict[str, PlacedNode]
    edges: list[EdgeRoute]
    layers: list[list[str]]  # layout keys per layer, top to bottom, left to right (no dummies)
    width: float
    height: float
    crossings: int = 0
    stubs_of: dict[str, list[str]] = field(default_factory=dict)  # hub node → its stub keys

    def keys_of(self, node: str) -> list[str]:
        return self.stubs_of.get(node, [node] if node in self.nodes else [])


def node_width(label: str, detail: str = "") -> float:
    return max(56.0, CHAR_WIDTH * max(len(label), len(detail)) + 22.0)


def _shape_text(shape) -> str:
    return "scalar" if tuple(shape) == () else str(list(shape))


def node_detail(data: dict) -> str:
    """The second line of a node: a tensor's shape, or the shapes a backward node's op produced."""
    if data["kind"] in ("backward", "module"):
        shapes = data.get("output_shapes", ())
        produced = ", ".join(_shape_text(s) for s in shapes[:3]) + (" …" if len(shapes) > 3 else "")
        return f"→ {produced}" if produced else ""
    shape = data.get("shape")
    return _shape_text(shape) if shape is not None else ""


@dataclass
class _WorkGraph:
    """The graph as laid out: hubs split into stubs; plain lists, in the graph's order."""

    nodes: list[str]
    data: dict[str, dict]  # node → the graph's attribute dict (shared, not copied)
    edges: list[tuple[str, str, dict]]  # (source, target, edge attributes)
    owner: dict[str, str]  # layout key → the graph node it shows
    stubs_of: dict[str, list[str]]  # hub → its stub keys


def split_hubs(graph: nx.DiGraph, min_uses: int = HUB_MIN_USES) -> _WorkGraph:
    """`graph` where each source read by ≥ min_uses consumers becomes one stub per use."""
    work, stub_edges = _WorkGraph([], {}, [], {}, {}), []
    successors, predecessors = graph._succ, graph._pred  # adjacency dicts: no view objects
    for node, data in graph.nodes(data=True):
        if not predecessors[node] and len(successors[node]) >= min_uses:
            keys = work.stubs_of[node] = [f"{node}@{k}" for k in range(len(successors[node]))]
            for key, (consumer, edge) in zip(keys, successors[node].items(), strict=True):
                work.owner[key] = node
                work.data[key] = data
                work.nodes.append(key)
                stub_edges.append((key, consumer, edge))
        else:
            work.owner[node] = node
            work.data[node] = data
            work.nodes.append(node)
    for source, targets in successors.items():
        if source not in work.stubs_of:
            work.edges.extend((source, target, edge) for target, edge in targets.items())
    work.edges += stub_edges
    return work


def assign_layers(nodes: list[str], edges) -> dict[str, int]:
    """Layer 0 at the top; every edge goes down; each node right above its deepest consumer."""
    consumers: dict[str, list[str]] = {node: [] for node in nodes}
    readers: dict[str, list[str]] = {node: [] for node in nodes}
    for edge in edges:
        consumers[edge[0]].append(edge[1])
        readers[edge[1]].append(edge[0])
    waiting = {node: len(below) for node, below in consumers.items()}  # consumers not placed
    height: dict[str, int] = {}
    ready = [node for node in nodes if not consumers[node]]
    while ready:
        node = ready.pop()
        below = consumers[node]
        height[node] = 1 + max([height[c] for c in below]) if below else 0
        for source in readers[node]:
            waiting[source] -= 1
            if not waiting[source]:
                ready.append(source)
    if len(height) != len(nodes):
        raise nx.NetworkXUnfeasible("the graph has a cycle")
    top = max(height.values(), default=0)
    return {node: top - height[node] for node in nodes}


def _place_layer(layer, desired, widths) -> list[float]:
    """Positions as close to `desired` as the ordered widths allow (mean of a left and a right
    packing; both keep every gap, so their mean does too)."""
    n = len(layer)
    gaps = [(widths[layer[i]] + widths[layer[i + 1]]) / 2 + NODE_GAP for i in range(n - 1)]
    left = [0.0] * n
    for i in range(n):
        left[i] = desired[i] if i == 0 else max(desired[i], left[i - 1] + gaps[i - 1])
    right = [0.0] * n
    for i in range(n - 1, -1, -1):
        right[i] = desired[i] if i == n - 1 else min(desired[i], right[i + 1] - gaps[i])
    return [(a + b) / 2 for a, b in zip(left, right, strict=True)]


def _median(values: list[float]) -> float:
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def _assign_x(order: Ordering, widths: list[float], sweeps: int = 4) -> list[float]:
    """x of every node (by index): packed left, then each layer in turn pulled to the median of
    its neighbours above (downward sweeps) or below (upward), keeping the order and the gaps."""
    x = [0.0] * len(order.names)
    for layer in order.layers:
        cursor = 0.0
        for node in layer:
            x[node] = cursor + widths[node] / 2
            cursor += widths[node] + NODE_GAP
    for sweep in range(sweeps):
        downward = sweep % 2 == 0
        neighbours = order.up if downward else order.down
        for layer in order.layers if downward else reversed(order.layers):
            desired = []
            for node in layer:
                near = neighbours[node]
                if len(near) == 1:
                    desired.append(x[near[0]])
                elif near:
                    desired.append(_median(sorted([x[m] for m in near])))
                else:
                    desired.append(x[node])
            if len(layer) == 1:
                x[layer[0]] = desired[0]
                continue
            for node, value in zip(layer, _place_layer(layer, desired, widths), strict=True):
                x[node] = value
    return x


def _spread(count: int, width: float) -> list[float]:
    """Offsets from a node's centre for `count` edge ends along a side of `width`."""
    if count < 2:
        return [0.0] * count
    span = min(width * 0.6, PORT_GAP * (count - 1))
    return [-span / 2 + span * i / (count - 1) for i in range(count)]


def _port_offsets(chains, x, widths):
    """Where each edge leaves its source's bottom and meets its target's top: spread in the
    order of the neighbour they come from, so edges into one node do not pile onto one point."""
    outgoing: dict[str, list] = {}
    incoming: dict[str, list] = {}
    for (source, target), chain in chains.items():
        outgoing.setdefault(source, []).append((x[chain[0] if chain else target], target))
        incoming.setdefault(target, []).append((x[chain[-1] if chain else source], source))
    starts, ends = {}, {}
    for source, items in outgoing.items():
        if len(items) == 1:
            starts[(source, items[0][1])] = 0.0
            continue
        items.sort()
        for offset, (_, target) in zip(_spread(len(items), widths[source]), items, strict=True):
            starts[(source, target)] = offset
    for target, items in incoming.items():
        if len(items) == 1:
            ends[(items[0][1], target)] = 0.0
            continue
        items.sort()
        for offset, (_, source) in zip(_spread(len(items), widths[target]), items, strict=True):
            ends[(source, target)] = offset
    return starts, ends


def layout_graph(graph: nx.DiGraph, hub_min_uses: int = HUB_MIN_USES) -> GraphLayout:
    """Lay out an AutogradGraph.graph (node attrs: label, optional shape) top to bottom."""
    with gc_paused():
        return _layout_graph(graph, hub_min_uses)


def _layout_graph(graph: nx.DiGraph, hub_min_uses: int) -> GraphLayout:
    if graph.number_of_nodes() == 0:
        return GraphLayout({}, [], [], 0.0, 0.0)
    work = split_hubs(graph, hub_min_uses)
    owner, stubs_of = work.owner, work.stubs_of
    layer_of = assign_layers(work.nodes, work.edges)
    widths: dict = {}
    width_of_data: dict[int, float] = {}  # a hub's stubs share one attribute dict
    for node, data in work.data.items():
        width = width_of_data.get(id(data))
        if width is None:
            room = "grad = -0.0000" if data["kind"] == "accumulate_grad" else ""  # its .grad
            width = node_width(data["label"], max(node_detail(data), room, key=len))
            width_of_data[id(data)] = width
        widths[node] = width
    layers: list[list] = [[] for _ in range(max(layer_of.values()) + 1)]
    for node in work.nodes:  # graph order: the deterministic starting order
        layers[layer_of[node]].append(node)
    chains: dict[tuple[str, str], list[tuple[str, str, int]]] = {}
    output_nrs_of = {}
    short_edges: list[tuple] = []
    for source, target, edge in work.edges:
        output_nrs_of[(source, target)] = tuple(sorted(set(edge.get("output_nrs", (0,)))))
        previous, chain = source, []
        for k in range(layer_of[source] + 1, layer_of[target]):
            dummy = (source, target, k)  # a bend point of a long edge: a tuple, never a node id
            widths[dummy] = DUMMY_WIDTH
            layers[k].append(dummy)
            chain.append(dummy)
            short_edges.append((previous, dummy))
            previous = dummy
        short_edges.append((previous, target))
        chains[(source, target)] = chain
    order = Ordering(layers, short_edges)
    huge = len(order.names) > HUGE_GRAPH
    sweeps_without_gain = 1 if huge else 2
    crossings = reduce_crossings(order, stale_limit=sweeps_without_gain)
    x_list = _assign_x(order, [widths[n] for n in order.names], 2 if huge else 4)
    left = min(x - widths[n] / 2 for n, x in zip(order.names, x_list, strict=True))
    x = {n: value - left for n, value in zip(order.names, x_list, strict=True)}
    y_of = [k * LAYER_GAP + NODE_HEIGHT / 2 for k in range(len(layers))]
    nodes = {}
    for node in work.nodes:
        stub = owner[node] != node
        placed = PlacedNode(node, owner[node], x[node], y_of[layer_of[node]], widths[node],
                            NODE_HEIGHT, stub)  # fmt: skip
        nodes[node] = placed
    starts, ends = _port_offsets(chains, x, widths)
    edges = []
    half = NODE_HEIGHT / 2
    for (source, target), chain in chains.items():
        points = [(x[source] + starts[(source, target)], y_of[layer_of[source]] + half)]
        points += [(x[d], y_of[d[2]]) for d in chain]
        points.append((x[target] + ends[(source, target)], y_of[layer_of[target]] - half))
        edges.append(
            EdgeRoute(owner[source], target, tuple(points), output_nrs_of[(source, target)])
        )
    width = max(p.x + p.width / 2 for p in nodes.values())
    height = len(layers) * LAYER_GAP - (LAYER_GAP - NODE_HEIGHT)
    names = order.names
    visible = [[names[i] for i in layer if isinstance(names[i], str)] for layer in order.layers]
    return GraphLayout(nodes, edges, visible, width, height, crossings, stubs_of)
