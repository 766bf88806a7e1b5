"""A GraphLayout cut into horizontal bands of layers, and flat arrays of its geometry.

The scene of a big graph builds graphics items only for the bands in view (and paints the rest
as an overview); this is the arithmetic it needs, kept out of Qt: which nodes and edges touch a
band, which bands a rectangle spans, which node is under a point, and every node box and edge
segment as NumPy arrays for drawing thousands of them at once."""

from __future__ import annotations

import numpy as np

from tensorviz.core.graph_layout.layered_layout import LAYER_GAP, GraphLayout

BAND_LAYERS = 6


class LayoutBands:
    def __init__(
        self, layout: GraphLayout, kind_of: dict[str, int], band_layers: int = BAND_LAYERS
    ):
        """`kind_of`: layout key → a small integer (the colour class the overview paints)."""
        self.layout = layout
        self.band_height = band_layers * LAYER_GAP
        nodes = list(layout.nodes.values())
        self.node_keys = [p.key for p in nodes]
        flat = [value for p in nodes for value in (p.x, p.y, p.width, p.height)]
        x, y, w, h = np.array(flat, float).reshape(-1, 4).T  # a flat list converts fastest
        self.boxes = np.column_stack([x - w / 2, y - h / 2, x + w / 2, y + h / 2])
        self.kinds = np.array([kind_of.get(key, 0) for key in self.node_keys], dtype=np.int64)
        self.band_count = max(1, int(layout.height // self.band_height) + 1)
        self._nodes_in: list[list[str]] | None = None  # per band; made when first asked for
        self._edges_in: list[list[int]] | None = None
        routes = layout.edges
        points = np.array([v for r in routes for p in r.points for v in p], float).reshape(-1, 2)
        counts = np.array([len(r.points) for r in routes], dtype=np.int64)
        starts = np.ones(len(points), dtype=bool)  # a segment starts at every point but the last
        starts[np.cumsum(counts) - 1] = False
        begin = np.flatnonzero(starts)
        self.segments = np.column_stack([points[begin], points[begin + 1]]).reshape(-1, 4)

    def _bands_of(self, ys: np.ndarray) -> list[int]:
        bands = np.clip((ys // self.band_height).astype(np.int64), 0, self.band_count - 1)
        return bands.tolist()

    def band_of(self, y: float) -> int:
        return min(max(int(y // self.band_height), 0), self.band_count - 1)

    def bands_between(self, top: float, bottom: float) -> range:
        return range(self.band_of(top), self.band_of(bottom) + 1)

    def nodes_in(self, band: int) -> list[str]:
        """Layout keys of the nodes whose box starts in `band`."""
        if self._nodes_in is None:  # not needed for an overview: made on the first zoom in
            self._nodes_in = [[] for _ in range(self.band_count)]
            for key, at in zip(self.node_keys, self._bands_of(self.boxes[:, 1]), strict=True):
                self._nodes_in[at].append(key)
        return self._nodes_in[band]

    def edges_in(self, band: int) -> list[int]:
        """Indices into layout.edges of the edges that pass through `band`."""
        if self._edges_in is None:
            routes = self.layout.edges
            ends = np.array([r.points[e][1] for r in routes for e in (0, -1)], float)
            ends = ends.reshape(-1, 2)
            self._edges_in = [[] for _ in range(self.band_count)]
            first, last = self._bands_of(ends[:, 0]), self._bands_of(ends[:, 1])
            for index, (low, high) in enumerate(zip(first, last, strict=True)):
                for at in range(low, high + 1):
                    self._edges_in[at].append(index)
        return self._edges_in[band]

    def node_at(self, x: float, y: float) -> str:
        """The graph node whose box holds (x, y), or ""."""
        b = self.boxes
        hits = np.flatnonzero((b[:, 0] <= x) & (x <= b[:, 2]) & (b[:, 1] <= y) & (y <= b[:, 3]))
        return self.layout.nodes[self.node_keys[hits[0]]].node if len(hits) else ""

    def boxes_within(self, left: float, top: float, right: float, bottom: float):
        """(boxes, kinds) of the nodes that overlap the rectangle."""
        b = self.boxes
        keep = (b[:, 2] >= left) & (b[:, 0] <= right) & (b[:, 3] >= top) & (b[:, 1] <= bottom)
        return b[keep], self.kinds[keep]

    def marks_within(self, marks: np.ndarray, left: float, top: float, right: float, bottom: float):
        """`marks` (one per node box) of the boxes boxes_within() returns, in the same order."""
        b = self.boxes
        keep = (b[:, 2] >= left) & (b[:, 0] <= right) & (b[:, 3] >= top) & (b[:, 1] <= bottom)
        return marks[keep]

    def segments_within(self, left: float, top: float, right: float, bottom: float):
        s = self.segments
        low_x, high_x = np.minimum(s[:, 0], s[:, 2]), np.maximum(s[:, 0], s[:, 2])
        low_y, high_y = np.minimum(s[:, 1], s[:, 3]), np.maximum(s[:, 1], s[:, 3])
        keep = (high_x >= left) & (low_x <= right) & (high_y >= top) & (low_y <= bottom)
        return s[keep]
