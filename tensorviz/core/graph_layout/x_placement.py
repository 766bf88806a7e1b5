"""x of every node of a layered layout, once the order within each layer is fixed: each layer
pulled to its neighbours (a chain straight below the node it continues), keeping the order and
the gaps between boxes, and the narrowest of a placement and its mirror (layered_layout.py
lays out; this only places)."""

from __future__ import annotations

from tensorviz.core.graph_layout.layer_ordering import Ordering


def _anchor_of(layer, degree) -> int:
    """The index of a layer's best-connected node (the chain running through it), the middle
    one among equals: the sweeps keep it exactly where it wants to be."""
    size = len(layer)
    best, best_key = 0, (degree[layer[0]], -size)
    for i in range(1, size):
        key = (degree[layer[i]], -abs(2 * i - size))
        if key > best_key:
            best, best_key = i, key
    return best


def _median(values: list[float]) -> float:
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


class Following:
    """What each node's x follows, looking up and looking down: one neighbour (a node; a node
    with none follows itself), two equally connected ones (a pair: their mean) or several (a
    list: their median). It depends on the edges only, not on the order within the layers,
    so a placement and its mirror share it.

    A node read from two places sits under the one with more edges (the chain it continues,
    not the leaf or weight beside it): the mean of the two would shift a long chain half a box
    sideways per layer, thousands of pixels over a transformer (dot aligns to one too). Ties
    between equally connected nodes go to the one whose neighbours are better connected: the
    chain continues through them, a weight's transpose ends at a leaf."""

    def __init__(self, order: Ordering) -> None:
        up, down = order.up, order.down
        edges = [len(a) + len(b) for a, b in zip(up, down, strict=True)]
        self.degree = degree = [
            100 * edges[node] + sum([edges[m] for m in up[node]]) + sum([edges[m] for m in near])
            for node, near in enumerate(down)
        ]
        self.up = [_followed(node, near, degree) for node, near in enumerate(up)]
        self.down = [_followed(node, near, degree) for node, near in enumerate(down)]


def assign_x(
    order: Ordering,
    widths: list[float],
    gap: float,
    sweeps: int = 4,
    following: Following | None = None,
) -> list[float]:
    """x of every node (by index): packed left, then each layer in turn pulled to the median of
    its neighbours above (downward sweeps) or below (upward), keeping the order and the gaps:
    its anchor node (_anchor_of) exactly where it wants to be, the others as close to theirs as
    the gaps allow, pushed outward from it. Splitting a conflict evenly instead would move the
    chain half a gap per layer, and a long chain would drift sideways layer after layer."""
    following = following or Following(order)
    degree = following.degree
    x = [0.0] * len(order.names)
    # Each direction's plan, per layer: its nodes, what each follows, whether each follows one
    # node (its desired x is then one list comprehension), the least centre distances of
    # neighbours and the anchor. The sweeps are the hot loop of a layout (thousands of layers
    # of a few nodes each), so the placement is written out in them on plain floats.
    plans: list[list[tuple]] = [[], []]
    for layer in order.layers:
        cursor = 0.0
        for node in layer:
            x[node] = cursor + widths[node] / 2
            cursor += widths[node] + gap
        gaps = [(widths[a] + widths[b]) / 2 + gap for a, b in zip(layer, layer[1:], strict=False)]
        anchor = _anchor_of(layer, degree) if len(layer) > 1 else 0
        for plan, rules in zip(plans, (following.up, following.down), strict=True):
            own = [rules[node] for node in layer]
            single = all([type(rule) is int for rule in own])
            plan.append((layer, own, single, gaps, anchor))
    for sweep in range(sweeps):
        downward = sweep % 2 == 0
        for layer, rules, single, gaps, anchor in plans[0] if downward else reversed(plans[1]):
            if single:
                desired = [x[rule] for rule in rules]
            else:
                desired = []
                for rule in rules:
                    if type(rule) is int:
                        desired.append(x[rule])
                    elif type(rule) is tuple:
                        desired.append((x[rule[0]] + x[rule[1]]) / 2)  # the median of two
                    else:
                        desired.append(_median(sorted([x[m] for m in rule])))
            placed = desired[anchor]
            x[layer[anchor]] = placed
            for i in range(anchor - 1, -1, -1):  # left of the anchor: pushed left
                placed -= gaps[i]
                if desired[i] < placed:
                    placed = desired[i]
                x[layer[i]] = placed
            placed = desired[anchor]
            for i in range(anchor + 1, len(layer)):  # right of it: pushed right
                placed += gaps[i - 1]
                if desired[i] > placed:
                    placed = desired[i]
                x[layer[i]] = placed
    return x


def _followed(node: int, near: list[int], degree: list[int]):
    """The rule of assign_x for `node` whose neighbours on one side are `near`: itself when it
    has none, of two the better-connected one (a chain stays straight), or both when they tie."""
    if not near:
        return node
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
    following = Following(order)  # (the mirror has the same edges)
    straight = assign_x(order, widths, gap, sweeps, following)
    mirror = Ordering.of_ids([layer[::-1] for layer in order.layers], order.up, order.down)
    flipped = [-value for value in assign_x(mirror, widths, gap, sweeps, following)]
    mean = [(a + b) / 2 for a, b in zip(straight, flipped, strict=True)]
    return min((mean, straight, flipped), key=lambda x: _span(x, widths))
