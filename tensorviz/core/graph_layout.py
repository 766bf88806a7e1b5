"""A layered (Sugiyama-style) layout of an autograd graph, our own code: no graphviz.

1. hubs: a source node read by many consumers (a shared weight in an unrolled RNN) is drawn as
   one small stub above each consumer instead of one node with edges across the whole picture;
2. ranks: each node sits one layer above its deepest consumer, so leaves sit right above the
   operation that reads them and the root tensor is at the bottom; long edges get dummy points;
3. order: barycentre sweeps down and up reduce edge crossings; the best order seen is kept;
4. coordinates: each node is pulled toward its neighbours, then pushed apart to its width.
Deterministic: ties break on the graph's node order, never on hashes or ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

HUB_MIN_USES = 4
LAYER_GAP = 74.0
NODE_HEIGHT = 34.0
NODE_GAP = 18.0
DUMMY_WIDTH = 6.0
CHAR_WIDTH = 7.0
PORT_GAP = 14.0
SWEEPS = 8


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


def split_hubs(graph: nx.DiGraph, min_uses: int = HUB_MIN_USES):
    """A copy of `graph` where each source read by ≥ min_uses consumers becomes one stub per use.

    Returns (layout graph, stub key → original node, hub → stub keys)."""
    layout_graph = nx.DiGraph()
    owner: dict[str, str] = {}
    stubs_of: dict[str, list[str]] = {}
    for node, data in graph.nodes(data=True):
        if graph.in_degree(node) == 0 and graph.out_degree(node) >= min_uses:
            stubs_of[node] = []
            for k in range(graph.out_degree(node)):
                key = f"{node}@{k}"
                stubs_of[node].append(key)
                owner[key] = node
                layout_graph.add_node(key, **data)
        else:
            owner[node] = node
            layout_graph.add_node(node, **data)
    for source, target, data in graph.edges(data=True):
        if source in stubs_of:
            continue
        layout_graph.add_edge(source, target, **data)
    for hub, keys in stubs_of.items():
        for key, consumer in zip(keys, graph.successors(hub), strict=True):
            layout_graph.add_edge(key, consumer, **graph.edges[hub, consumer])
    return layout_graph, owner, stubs_of


def assign_layers(graph: nx.DiGraph) -> dict[str, int]:
    """Layer 0 at the top; every edge goes down; each node right above its deepest consumer."""
    height: dict[str, int] = {}
    for node in reversed(list(nx.topological_sort(graph))):
        successors = [height[s] for s in graph.successors(node)]
        height[node] = 1 + max(successors) if successors else 0
    top = max(height.values(), default=0)
    return {node: top - h for node, h in height.items()}


def _inversions(sequence: list[int]) -> int:
    """Pairs i < j with sequence[i] > sequence[j] (merge sort, O(n log n))."""
    n = len(sequence)
    if n < 2 or all(sequence[i] <= sequence[i + 1] for i in range(n - 1)):
        return 0
    if n <= 16:
        return sum(1 for i in range(n) for j in range(i + 1, n) if sequence[i] > sequence[j])
    work, count, width = list(sequence), 0, 1
    while width < n:
        merged = []
        for lo in range(0, n, 2 * width):
            left, right = work[lo : lo + width], work[lo + width : lo + 2 * width]
            i = j = 0
            while i < len(left) and j < len(right):
                if left[i] <= right[j]:
                    merged.append(left[i])
                    i += 1
                else:
                    merged.append(right[j])
                    count += len(left) - i
                    j += 1
            merged.extend(left[i:])
            merged.extend(right[j:])
        work, width = merged, width * 2
    return count


def _edges_by_layer(layers, edges) -> list[list[tuple[str, str]]]:
    layer_of = {node: k for k, layer in enumerate(layers) for node in layer}
    grouped: list[list[tuple[str, str]]] = [[] for _ in layers]
    for source, target in edges:
        grouped[layer_of[source]].append((source, target))
    return grouped


def _crossings(layers, grouped) -> int:
    total = 0
    for k, pairs in enumerate(grouped):
        if len(pairs) < 2:
            continue
        upper = {node: i for i, node in enumerate(layers[k])}
        lower = {node: i for i, node in enumerate(layers[k + 1])}
        ordered = sorted((upper[s], lower[t]) for s, t in pairs)
        total += _inversions([position for _, position in ordered])
    return total


def count_crossings(layers: list[list[str]], edges: list[tuple[str, str]]) -> int:
    """Straight-segment crossings between consecutive layers (edges join adjacent layers)."""
    return _crossings(layers, _edges_by_layer(layers, edges))


def _sweep(layers, neighbours, downward: bool) -> None:
    indices = range(1, len(layers)) if downward else range(len(layers) - 2, -1, -1)
    for k in indices:
        if len(layers[k]) < 2:
            continue
        fixed = {node: i for i, node in enumerate(layers[k - 1 if downward else k + 1])}
        keyed = []
        for i, node in enumerate(layers[k]):
            near = [fixed[m] for m in neighbours[node] if m in fixed]
            keyed.append((sum(near) / len(near) if near else float(i), i, node))
        keyed.sort()
        layers[k] = [node for _, _, node in keyed]


def order_layers(
    layers: list[list[str]], edges: list[tuple[str, str]], sweeps: int = SWEEPS
) -> tuple[list[list[str]], int]:
    """Barycentre sweeps; returns the best ordering seen (never worse than the input). Stops
    after two sweeps without improvement."""
    neighbours: dict[str, list[str]] = {node: [] for layer in layers for node in layer}
    for source, target in edges:
        neighbours[source].append(target)
        neighbours[target].append(source)
    grouped = _edges_by_layer(layers, edges)
    current = [list(layer) for layer in layers]
    best, best_crossings = [list(layer) for layer in current], _crossings(current, grouped)
    stale = 0
    for sweep in range(sweeps):
        if best_crossings == 0 or stale == 2:
            break
        _sweep(current, neighbours, downward=sweep % 2 == 0)
        crossings = _crossings(current, grouped)
        if crossings < best_crossings:
            best, best_crossings, stale = [list(layer) for layer in current], crossings, 0
        else:
            stale += 1
    return best, best_crossings


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


def _assign_x(layers, edges, widths) -> dict[str, float]:
    x: dict[str, float] = {}
    for layer in layers:
        cursor = 0.0
        for node in layer:
            x[node] = cursor + widths[node] / 2
            cursor += widths[node] + NODE_GAP
    above: dict[str, list[str]] = {node: [] for node in x}
    below: dict[str, list[str]] = {node: [] for node in x}
    for source, target in edges:
        below[source].append(target)
        above[target].append(source)
    for sweep in range(4):
        downward = sweep % 2 == 0
        order = layers if downward else list(reversed(layers))
        for layer in order:
            neighbours = above if downward else below
            desired = []
            for node in layer:
                near = sorted(x[m] for m in neighbours[node])
                desired.append(_median(near) if near else x[node])
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
        items.sort()
        for offset, (_, target) in zip(_spread(len(items), widths[source]), items, strict=True):
            starts[(source, target)] = offset
    for target, items in incoming.items():
        items.sort()
        for offset, (_, source) in zip(_spread(len(items), widths[target]), items, strict=True):
            ends[(source, target)] = offset
    return starts, ends


def layout_graph(graph: nx.DiGraph, hub_min_uses: int = HUB_MIN_USES) -> GraphLayout:
    """Lay out an AutogradGraph.graph (node attrs: label, optional shape) top to bottom."""
    if graph.number_of_nodes() == 0:
        return GraphLayout({}, [], [], 0.0, 0.0)
    work, owner, stubs_of = split_hubs(graph, hub_min_uses)
    layer_of = assign_layers(work)
    widths: dict[str, float] = {}
    for node, data in work.nodes(data=True):
        room = "grad = -0.0000" if data["kind"] == "accumulate_grad" else ""  # for its .grad
        widths[node] = node_width(data["label"], max(node_detail(data), room, key=len))
    layers: list[list[str]] = [[] for _ in range(max(layer_of.values()) + 1)]
    for node in work.nodes:  # graph order: the deterministic starting order
        layers[layer_of[node]].append(node)
    chains: dict[tuple[str, str], list[str]] = {}
    short_edges: list[tuple[str, str]] = []
    for source, target in work.edges:
        previous, chain = source, []
        for k in range(layer_of[source] + 1, layer_of[target]):
            dummy = f"~{source}>{target}:{k}"
            widths[dummy] = DUMMY_WIDTH
            layers[k].append(dummy)
            chain.append(dummy)
            short_edges.append((previous, dummy))
            previous = dummy
        short_edges.append((previous, target))
        chains[(source, target)] = chain
    layers, crossings = order_layers(layers, short_edges)
    x = _assign_x(layers, short_edges, widths)
    left = min(x[n] - widths[n] / 2 for n in x)
    y_of = {k: k * LAYER_GAP + NODE_HEIGHT / 2 for k in range(len(layers))}
    nodes = {}
    for node in work.nodes:
        nodes[node] = PlacedNode(
            node,
            owner[node],
            x[node] - left,
            y_of[layer_of[node]],
            widths[node],
            NODE_HEIGHT,
            stub=owner[node] != node,
        )
    starts, ends = _port_offsets(chains, x, widths)
    edges = []
    for (source, target), chain in chains.items():
        start_x = x[source] + starts[(source, target)] - left
        points = [(start_x, y_of[layer_of[source]] + NODE_HEIGHT / 2)]
        points += [(x[d] - left, y_of[int(d.rsplit(":", 1)[1])]) for d in chain]
        end_x = x[target] + ends[(source, target)] - left
        points.append((end_x, y_of[layer_of[target]] - NODE_HEIGHT / 2))
        output_nrs = tuple(sorted(set(work.edges[source, target].get("output_nrs", (0,)))))
        edges.append(EdgeRoute(owner[source], target, tuple(points), output_nrs))
    width = max(p.x + p.width / 2 for p in nodes.values())
    height = len(layers) * LAYER_GAP - (LAYER_GAP - NODE_HEIGHT)
    visible = [[n for n in layer if not n.startswith("~")] for layer in layers]
    return GraphLayout(nodes, edges, visible, width, height, crossings, stubs_of)
