"""x of every node of a layered layout, once the order within each layer is fixed: each layer
pulled to its neighbours (a chain straight below the node it continues), keeping the order and
the gaps between boxes, and the narrowest of a placement and its mirror (layered_layout.py
lays out; this only places)."""

from __future__ import annotations

from tensorviz.core.graph_layout.layer_ordering import Ordering


def _anchor_of(layer, degree) -> int:
    """The index of a layer's best-connected node (the chain running through it), the middle
    one among equals: _place_around keeps it exactly where it wants to be."""
    return max(range(len(layer)), key=lambda i: (degree[layer[i]], -abs(2 * i - len(layer))))


def _place_around(desired, gaps, anchor: int) -> list[float]:
    """Positions for an ordered layer: its anchor node exactly where it wants to be, the others
    as close to theirs as the gaps allow, pushed outward from it. Splitting a conflict evenly
    instead would move the chain half a gap per layer, and a long chain would drift sideways
    layer after layer."""
    placed = desired[:]
    for i in range(anchor - 1, -1, -1):
        placed[i] = min(desired[i], placed[i + 1] - gaps[i])
    for i in range(anchor + 1, len(placed)):
        placed[i] = max(desired[i], placed[i - 1] + gaps[i - 1])
    return placed


def _median(values: list[float]) -> float:
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def assign_x(order: Ordering, widths: list[float], gap: float, sweeps: int = 4) -> list[float]:
    """x of every node (by index): packed left, then each layer in turn pulled to the median of
    its neighbours above (downward sweeps) or below (upward), keeping the order and the gaps."""
    x = [0.0] * len(order.names)
    gaps_of = []  # per layer: least centre distances of neighbours (the order is fixed here)
    for layer in order.layers:
        cursor = 0.0
        for node in layer:
            x[node] = cursor + widths[node] / 2
            cursor += widths[node] + gap
        pairs = zip(layer, layer[1:], strict=False)
        gaps_of.append([(widths[a] + widths[b]) / 2 + gap for a, b in pairs])
    layers = list(zip(order.layers, gaps_of, strict=True))
    # A node read from two places sits under the one with more edges (the chain it continues,
    # not the leaf or weight beside it): the mean of the two would shift a long chain half a
    # box sideways per layer, thousands of pixels over a transformer (dot aligns to one too).
    # Ties between equally connected nodes go to the one whose neighbours are better
    # connected: the chain continues through them, a weight's transpose ends at a leaf.
    edges = [len(a) + len(b) for a, b in zip(order.up, order.down, strict=True)]
    degree = [
        100 * edges[node] + sum(edges[m] for m in order.up[node]) + sum(edges[m] for m in near)
        for node, near in enumerate(order.down)
    ]
    # What each node follows, looking up and looking down (fixed while the order is): one
    # neighbour (a node), two equally connected ones (a pair: their mean) or several (a list:
    # their median); None: it stays.
    follows = [[_followed(near, degree) for near in order.up],
               [_followed(near, degree) for near in order.down]]  # fmt: skip
    anchors = [_anchor_of(layer, degree) if len(layer) > 1 else 0 for layer in order.layers]
    layers = [(layer, gaps, anchor) for (layer, gaps), anchor in zip(layers, anchors, strict=True)]
    for sweep in range(sweeps):
        downward = sweep % 2 == 0
        rules = follows[0] if downward else follows[1]
        for layer, gaps, anchor in layers if downward else reversed(layers):
            desired = []
            for node in layer:
                rule = rules[node]
                if rule is None:
                    desired.append(x[node])
                elif type(rule) is int:
                    desired.append(x[rule])
                elif type(rule) is tuple:
                    desired.append((x[rule[0]] + x[rule[1]]) / 2)  # the median of two
                else:
                    desired.append(_median(sorted([x[m] for m in rule])))
            if len(layer) == 1:
                x[layer[0]] = desired[0]
            else:
                for node, value in zip(layer, _place_around(desired, gaps, anchor), strict=True):
                    x[node] = value
    return x


def _followed(near: list[int], degree: list[int]):
    """The rule of assign_x for a node whose neighbours on one side are `near`: of two, the
    better-connected one (a chain stays straight), or both when they tie."""
    if not near:
        return None
    if len(near) == 1:
        return near[0]
    if len(near) == 2:
        a, b = near
        if degree[a] == degree[b]:
            return (a, b)
        return a if degree[a] > degree[b] else b
    return near


def _span(x: list[float], widths: list[float]) -> float:
    """How wide a placement is: its boxes and the bend points of its long edges."""
    return max([v + w / 2 for v, w in zip(x, widths, strict=True)]) - min(
        [v - w / 2 for v, w in zip(x, widths, strict=True)]
    )


def balanced_x(order: Ordering, widths: list[float], gap: float, sweeps: int) -> list[float]:
    """The narrowest of three placements: assign_x on the layers as ordered, on the layers
    mirrored (then mirrored back), and their mean. A tie sends a chain one way in one and the
    other way in the other; where a chain meets a side branch in every block (a transformer's
    attention beside its values) the side a tie picks repeats block after block, so one of them
    drifts a step per block and the other not at all, while their mean drifts half a step. Width
    shows the drift; like Brandes and Köpf, keep the narrowest (their mean elsewhere, where the
    drifts cancel). All three keep every gap in the same order."""
    straight = assign_x(order, widths, gap, sweeps)
    mirror = Ordering.of_ids([layer[::-1] for layer in order.layers], order.up, order.down)
    flipped = [-value for value in assign_x(mirror, widths, gap, sweeps)]
    mean = [(a + b) / 2 for a, b in zip(straight, flipped, strict=True)]
    return min((mean, straight, flipped), key=lambda x: _span(x, widths))
