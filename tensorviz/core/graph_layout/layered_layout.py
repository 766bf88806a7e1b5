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
from tensorviz.core.graph_layout.layer_ordering import Ordering, reduce_crossings
from tensorviz.core.graph_layout.x_placement import assign_x, balanced_x
from tensorviz.core.translation import _

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


def _frozen(cls, **fields):
    """An instance of the frozen dataclass `cls` from all its fields, made without its
    generated __init__ (one object.__setattr__ per field): a layout makes thousands."""
    made = object.__new__(cls)
    object.__setattr__(made, "__dict__", fields)
    return made


def node_width(label: str, detail: str = "") -> float:
    return max(56.0, CHAR_WIDTH * max(len(label), len(detail)) + 22.0)


def _shape_text(shape) -> str:
    return _("scalar") if tuple(shape) == () else str(list(shape))


def node_detail(data: dict) -> str:
    """The second line of a node: a tensor's shape, or the shapes a backward node's op produced."""
    if data["kind"] in ("backward", "module"):
        shapes = data.get("output_shapes", ())
        produced = ", ".join(_shape_text(s) for s in shapes[:3]) + (" …" if len(shapes) > 3 else "")
        return f"→ {produced}" if produced else ""
    shape = data.get("shape")
    return _shape_text(shape) if shape is not None else ""


def _box_width(data: dict, memo: dict[tuple, float]) -> float:
    """node_width of a node's two lines (room for an AccumulateGrad's .grad), memoised on what
    the lines are made of."""
    text = (data["kind"], data["label"], data.get("shape"), data.get("output_shapes"))
    try:
        width = memo.get(text)
    except TypeError:  # shapes given as lists: not memoised
        text, width = None, None
    if width is None:
        room = "grad = -0.0000" if data["kind"] == "accumulate_grad" else ""
        width = node_width(data["label"], max(node_detail(data), room, key=len))
        if text is not None:
            memo[text] = width
    return width


@dataclass
class _WorkGraph:
    """The graph as laid out: hubs split into stubs; nodes are integer ids (list positions), in
    the graph's order."""

    keys: list[str]  # id → layout key: the node id, or "node@k" for a hub's k-th stub
    data: list[dict]  # id → the graph's attribute dict (shared, not copied)
    owner: list[str]  # id → the graph node it shows
    edges: list[tuple[int, int, dict]]  # (source, target, edge attributes)
    stubs_of: dict[str, list[str]]  # hub → its stub keys


def split_hubs(graph: nx.DiGraph, min_uses: int = HUB_MIN_USES) -> _WorkGraph:
    """`graph` where each source read by ≥ min_uses consumers becomes one stub per use."""
    work, stub_edges = _WorkGraph([], [], [], [], {}), []
    keys, owner, data_of = work.keys, work.owner, work.data
    successors, predecessors = graph._succ, graph._pred  # adjacency dicts: no view objects
    index: dict[str, int] = {}  # a graph node that is not a hub → its id
    for node, data in graph.nodes(data=True):
        if not predecessors[node] and len(successors[node]) >= min_uses:
            stubs = work.stubs_of[node] = [f"{node}@{k}" for k in range(len(successors[node]))]
            for key, (consumer, edge) in zip(stubs, successors[node].items(), strict=True):
                stub_edges.append((len(keys), consumer, edge))
                keys.append(key)
                owner.append(node)
                data_of.append(data)
        else:
            index[node] = len(keys)
            keys.append(node)
            owner.append(node)
            data_of.append(data)
    for source, targets in successors.items():
        if source not in work.stubs_of:
            at = index[source]
            work.edges.extend([(at, index[target], edge) for target, edge in targets.items()])
    work.edges += [(stub, index[consumer], edge) for stub, consumer, edge in stub_edges]
    return work


def assign_layers(count: int, edges) -> list[int]:
    """The layer of each of `count` nodes (ids 0..count-1; edges are (source, target, ...)):
    layer 0 at the top; every edge goes down; each node right above its deepest consumer."""
    consumers: list[list[int]] = [[] for _unused in range(count)]
    readers: list[list[int]] = [[] for _unused in range(count)]
    for edge in edges:
        consumers[edge[0]].append(edge[1])
        readers[edge[1]].append(edge[0])
    waiting = [len(below) for below in consumers]  # consumers not placed yet
    height = [0] * count
    ready = [node for node in range(count) if not waiting[node]]
    placed = 0
    while ready:
        node = ready.pop()
        below = consumers[node]
        if below:
            height[node] = 1 + max([height[c] for c in below])
        placed += 1
        for source in readers[node]:
            waiting[source] -= 1
            if not waiting[source]:
                ready.append(source)
    if placed != count:
        raise nx.NetworkXUnfeasible("the graph has a cycle")
    top = max(height, default=0)
    return [top - h for h in height]


def _spread(count: int, width: float) -> list[float]:
    """Offsets from a node's centre for `count` edge ends along a side of `width`."""
    if count < 2:
        return [0.0] * count
    span = min(width * 0.6, PORT_GAP * (count - 1))
    return [-span / 2 + span * i / (count - 1) for i in range(count)]


def _port_offsets(routes, x, widths, keys, order: Ordering):
    """Where each edge leaves its source's bottom and meets its target's top (offsets from the
    centres, per route): spread in the order of the neighbour they come from, so edges into
    one node do not pile onto one point. Ties break on the neighbour's layout key."""
    outgoing: dict[int, list] = {}  # only nodes with several edges out / in: the others get 0
    incoming: dict[int, list] = {}
    up, down = order.up, order.down
    for index, (source, target, chain, _unused) in enumerate(routes):
        if len(down[source]) > 1:
            first = chain[0] if chain else target
            outgoing.setdefault(source, []).append((x[first], keys[target], index))
        if len(up[target]) > 1:
            last = chain[-1] if chain else source
            incoming.setdefault(target, []).append((x[last], keys[source], index))
    starts, ends = [0.0] * len(routes), [0.0] * len(routes)
    for offsets, grouped in ((starts, outgoing), (ends, incoming)):
        for node, items in grouped.items():
            items.sort()
            for offset, item in zip(_spread(len(items), widths[node]), items, strict=True):
                offsets[item[2]] = offset
    return starts, ends


def _layer_tops(layers: list[list[int]], heights: list[float]) -> tuple[list[float], list[float]]:
    """The top y of each layer and its height (its tallest node's): a layer of ordinary nodes
    is NODE_HEIGHT tall and LAYER_GAP from the next; a frame makes its layer taller."""
    tops, tall, y = [], [], 0.0
    for layer in layers:
        height = max([heights[n] for n in layer], default=NODE_HEIGHT)
        tops.append(y)
        tall.append(height)
        y += height + LAYER_GAP - NODE_HEIGHT
    return tops, tall


def layout_graph(graph: nx.DiGraph, hub_min_uses: int = HUB_MIN_USES) -> GraphLayout:
    """Lay out a DiGraph (node attrs: kind, label, optional shape) top to bottom. A node may
    give its own box size (`box_width`, `box_height`: a frame holding a laid-out subgraph) and
    `rank="top"` to sit in the first layer."""
    with gc_paused():
        return _layout_graph(graph, hub_min_uses)


def _layout_graph(graph: nx.DiGraph, hub_min_uses: int) -> GraphLayout:
    if graph.number_of_nodes() == 0:
        return GraphLayout({}, [], [], 0.0, 0.0)
    work = split_hubs(graph, hub_min_uses)
    owner, keys = work.owner, work.keys
    level = assign_layers(len(keys), work.edges)  # per id; bend points of long edges get ids
    for node, data in enumerate(work.data):
        if data.get("rank") == "top":  # pinned to the first layer (a frame's input ports)
            level[node] = 0
    width_of: dict[tuple, float] = {}  # most nodes repeat another's label and shapes
    widths = [data.get("box_width") or _box_width(data, width_of) for data in work.data]
    heights = [data.get("box_height", NODE_HEIGHT) for data in work.data]
    layers: list[list[int]] = [[] for _unused in range(max(level) + 1)]
    for node, k in enumerate(level):  # graph order: the deterministic starting order
        layers[k].append(node)
    tops, layer_heights = _layer_tops(layers, heights)
    routes = []  # (source, target, bend points, output_nrs) per edge
    up: list[list[int]] = [[] for _unused in keys]  # neighbours one layer up / down, bends included
    down: list[list[int]] = [[] for _unused in keys]
    for source, target, edge in work.edges:
        previous, chain = source, []
        for k in range(level[source] + 1, level[target]):
            dummy = len(widths)  # a bend point of a long edge
            widths.append(DUMMY_WIDTH)
            level.append(k)
            layers[k].append(dummy)
            chain.append(dummy)
            down[previous].append(dummy)
            up.append([previous])
            down.append([])
            previous = dummy
        down[previous].append(target)
        up[target].append(previous)
        routes.append((source, target, chain, tuple(sorted(set(edge.get("output_nrs", (0,)))))))
    order = Ordering.of_ids(layers, up, down)
    huge = len(order.names) > HUGE_GRAPH
    sweeps_without_gain = 1 if huge else 2
    crossings = reduce_crossings(order, stale_limit=sweeps_without_gain)
    # past HUGE_GRAPH the mirrored pass is left out: it doubles the cost of x (seconds there)
    x = assign_x(order, widths, NODE_GAP, 2) if huge else balanced_x(order, widths, NODE_GAP, 4)
    left = min([value - width / 2 for value, width in zip(x, widths, strict=True)])
    x = [value - left for value in x]
    nodes = {}
    for node, key in enumerate(keys):
        nodes[key] = _frozen(
            PlacedNode,
            key=key,
            node=owner[node],
            x=x[node],
            y=tops[level[node]] + heights[node] / 2,
            width=widths[node],
            height=heights[node],
            stub=owner[node] != key,
        )
    starts, ends = _port_offsets(routes, x, widths, keys, order)
    edges = []
    for (source, target, chain, output_nrs), start, end in zip(routes, starts, ends, strict=True):
        points = [(x[source] + start, tops[level[source]] + heights[source])]
        for d in chain:
            top, tall = tops[level[d]], layer_heights[level[d]]
            if tall > NODE_HEIGHT:  # past a tall frame: straight down its whole height
                points += [(x[d], top), (x[d], top + tall)]
            else:
                points.append((x[d], top + NODE_HEIGHT / 2))
        points.append((x[target] + end, tops[level[target]]))
        edges.append(
            _frozen(
                EdgeRoute,
                source=owner[source],
                target=keys[target],
                points=tuple(points),
                output_nrs=output_nrs,
            )
        )
    width = max(p.x + p.width / 2 for p in nodes.values())
    height = tops[-1] + layer_heights[-1]
    count = len(keys)
    visible = [[keys[i] for i in layer if i < count] for layer in order.layers]
    return GraphLayout(nodes, edges, visible, width, height, crossings, work.stubs_of)
