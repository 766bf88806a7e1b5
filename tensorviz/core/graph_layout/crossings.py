"""Edge crossings of a layered drawing, counted one way for every drawing we compare.

`segment_crossings` takes polylines between ranks (ours from `GraphLayout.edges`, dot's from
`dot -Tplain`), cuts each where it passes every rank in between, and counts pairs of straight
segments that cross between two consecutive ranks. bench/graph.py uses it for both sides and the
tests use it on our layouts."""

from __future__ import annotations


def inversions(sequence: list[int]) -> int:
    """Pairs i < j with sequence[i] > sequence[j] (merge sort, O(n log n))."""
    n = len(sequence)
    if n < 2 or sequence == sorted(sequence):  # in order (the common case): no inversions
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


def _x_at(polyline: list[tuple[float, float]], y: float) -> float:
    for (x0, y0), (x1, y1) in zip(polyline, polyline[1:], strict=False):
        if min(y0, y1) <= y <= max(y0, y1):
            return x0 if y1 == y0 else x0 + (x1 - x0) * (y - y0) / (y1 - y0)
    return polyline[0][0] if abs(polyline[0][1] - y) < abs(polyline[-1][1] - y) else polyline[-1][0]


def segment_crossings(rank_ys: list[float], edges) -> int:
    """Crossings of straight segments between consecutive ranks. `edges`: (tail rank, head rank,
    polyline from tail to head); the polyline is cut where it passes each rank in between."""
    gaps: dict[int, list[tuple[float, float]]] = {}
    for tail, head, polyline in edges:
        if tail == head:
            continue
        step = 1 if head > tail else -1
        xs = {tail: polyline[0][0], head: polyline[-1][0]}
        for rank in range(tail + step, head, step):
            xs[rank] = _x_at(polyline, rank_ys[rank])
        low, high = min(tail, head), max(tail, head)
        for rank in range(low, high):
            gaps.setdefault(rank, []).append((xs[rank], xs[rank + 1]))
    total = 0
    for segments in gaps.values():
        segments.sort()
        total += inversions([round(lower, 3) for _, lower in segments])
    return total


def route_crossings(layout) -> int:
    """`segment_crossings` of a GraphLayout's drawn edge routes (ports and bends included)."""
    if not layout.nodes:
        return 0
    half = next(iter(layout.nodes.values())).height / 2
    rank_ys = sorted({round(node.y, 2) for node in layout.nodes.values()})
    rank = {y: k for k, y in enumerate(rank_ys)}
    edges = []
    for route in layout.edges:
        tail = rank[round(route.points[0][1] - half, 2)]
        head = rank[round(route.points[-1][1] + half, 2)]
        edges.append((tail, head, list(route.points)))
    return segment_crossings(rank_ys, edges)
