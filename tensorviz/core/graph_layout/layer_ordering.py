"""Crossing reduction for a layered drawing: the order of the nodes within each layer.

Barycentre sweeps down and up, each followed by a transpose pass (swap neighbours while that
removes crossings; after each upward sweep, on ties too, to walk off plateaus as dot does); the
best order seen is kept. Nodes are integer indices here, so the inner loops stay cheap on a
15,000-node graph. Ties break on positions, never on hashes or ids: deterministic.
"""

from __future__ import annotations

from tensorviz.core.graph_layout.crossings import inversions

SWEEPS = 8
TRANSPOSE_PASSES = 6


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
        total += inversions([position for _, position in ordered])
    return total


def count_crossings(layers: list[list[str]], edges: list[tuple[str, str]]) -> int:
    """Straight-segment crossings between consecutive layers (edges join adjacent layers)."""
    return _crossings(layers, _edges_by_layer(layers, edges))


class Ordering:
    """Layers as lists of integer node indices, with each node's neighbours above and below."""

    def __init__(self, layers: list[list[str]], edges: list[tuple[str, str]]) -> None:
        self.names = [node for layer in layers for node in layer]
        index = {node: i for i, node in enumerate(self.names)}
        self.layers = [[index[node] for node in layer] for layer in layers]
        self.position = [0] * len(self.names)
        self.up: list[list[int]] = [[] for _ in self.names]
        self.down: list[list[int]] = [[] for _ in self.names]
        for source, target in edges:
            self.down[index[source]].append(index[target])
            self.up[index[target]].append(index[source])
        self.renumber()
        self.gaps: list[int] = []  # crossings between layer k and k + 1, as last counted

    @classmethod
    def of_ids(cls, layers: list[list[int]], up: list[list[int]], down: list[list[int]]):
        """An Ordering of nodes already numbered 0..n-1 (each in one of `layers`), given each
        node's neighbours above and below: no renaming (the names are the ids)."""
        order = cls.__new__(cls)
        order.names = list(range(len(up)))
        order.layers, order.up, order.down = layers, up, down
        order.position = [0] * len(up)
        order.renumber()
        order.gaps = []
        return order

    def renumber(self) -> None:
        position = self.position
        for layer in self.layers:
            for i, node in enumerate(layer):
                position[node] = i

    def crossings(self) -> int:
        """All crossings; `gaps[k]` keeps those between layers k and k + 1."""
        total, position, down = 0, self.position, self.down
        self.gaps = gaps = [0] * len(self.layers)
        for k, layer in enumerate(self.layers):
            ends: list[int] = []  # lower ends, ordered by upper end: layers are in order
            for source in layer:
                below = down[source]
                if len(below) == 1:
                    ends.append(position[below[0]])
                elif below:
                    ends.extend(sorted([position[t] for t in below]))
            if len(ends) > 1:
                gaps[k] = inversions(ends)
                total += gaps[k]
        return total

    def sweep(self, downward: bool) -> None:
        """Each layer sorted by the barycentre of its neighbours in the layer before it; a node
        with no such neighbour keeps its place."""
        position = self.position
        near_of = self.up if downward else self.down
        count = len(self.layers)
        for k in range(1, count) if downward else range(count - 2, -1, -1):
            layer = self.layers[k]
            if len(layer) < 2:
                continue
            keyed = []
            for i, node in enumerate(layer):
                near = near_of[node]
                count = len(near)
                if count == 1:  # the commonest case: the one neighbour's position
                    keyed.append((position[near[0]], i, node))
                elif count:
                    keyed.append((sum([position[m] for m in near]) / count, i, node))
                else:
                    keyed.append((i, i, node))
            keyed.sort()
            self.layers[k] = layer = [node for _, _, node in keyed]
            for i, node in enumerate(layer):
                position[node] = i

    def _pair_crossings(self, left: int, right: int) -> tuple[int, int]:
        """Crossings between the edges of two neighbouring nodes: (left first, right first)."""
        position, as_is, swapped = self.position, 0, 0
        for near in (self.up, self.down):
            for a in near[left]:
                pa = position[a]
                for b in near[right]:
                    pb = position[b]
                    if pa > pb:
                        as_is += 1
                    elif pa < pb:
                        swapped += 1
        return as_is, swapped

    def transpose(self, ties: bool, passes: int = TRANSPOSE_PASSES) -> int:
        """Swap neighbours in a layer while that removes crossings (what barycentres miss: a
        node pulled two ways, like a skip connection beside a weight). With `ties`, a swap that
        keeps a pair's crossings equal is made too, to walk off a plateau (as dot does).
        Starts from the layers next to a gap with crossings (as last counted: call crossings()
        first); only layers next to a swap are visited again. Returns how many crossings the
        swaps removed (a swap of neighbours changes no other pair's crossings)."""
        position, layers, gaps = self.position, self.layers, self.gaps
        last = len(layers) - 1
        dirty = [k for k in range(len(layers)) if (k and gaps[k - 1]) or (k < last and gaps[k])]
        removed = 0
        for _ in range(passes):
            if not dirty:
                break
            again: set[int] = set()
            for k in dirty:
                layer = layers[k]
                for i in range(len(layer) - 1):
                    left, right = layer[i], layer[i + 1]
                    as_is, swapped = self._pair_crossings(left, right)
                    if swapped < as_is or (ties and swapped == as_is > 0):
                        layer[i], layer[i + 1] = right, left
                        position[left], position[right] = i + 1, i
                        removed += as_is - swapped
                        again.update((k - 1, k, k + 1) if swapped < as_is else (k - 1, k + 1))
            dirty = sorted(k for k in again if 0 <= k <= last)
        return removed

    def named_layers(self) -> list[list[str]]:
        return [[self.names[node] for node in layer] for layer in self.layers]


def reduce_crossings(order: Ordering, sweeps: int = SWEEPS, stale_limit: int = 2) -> int:
    """Barycentre sweeps, each followed by adjacent swaps (transpose); leaves the best ordering
    seen in `order` (never worse than the input) and returns its crossings. Stops after
    `stale_limit` sweeps without improvement."""
    best, best_crossings = [list(layer) for layer in order.layers], order.crossings()
    stale = 0
    for sweep in range(sweeps):
        if best_crossings == 0 or stale == stale_limit:
            break
        order.sweep(downward=sweep % 2 == 0)
        crossings = order.crossings()
        crossings -= order.transpose(ties=sweep % 2 == 1)
        if crossings < best_crossings:
            best, best_crossings, stale = [list(layer) for layer in order.layers], crossings, 0
        else:
            stale += 1
    order.layers = best
    order.renumber()
    return best_crossings


def order_layers(
    layers: list[list[str]], edges: list[tuple[str, str]], sweeps: int = SWEEPS
) -> tuple[list[list[str]], int]:
    """The layers reordered to reduce crossings (see reduce_crossings), and their crossings."""
    order = Ordering(layers, edges)
    crossings = reduce_crossings(order, sweeps)
    return order.named_layers(), crossings
