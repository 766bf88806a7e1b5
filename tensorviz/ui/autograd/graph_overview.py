"""The whole graph drawn at once when it is zoomed out too far for node items to be useful.

One item covers the layout. Below DETAIL_ZOOM it paints the node boxes and edge segments that
fall in the exposed rectangle, in device pixels, after merging everything that lands on the same
pixels (15,000 nodes fitted into a window are a few thousand distinct rectangles): a level of
detail that keeps a first paint of a huge graph cheap. At DETAIL_ZOOM and above it paints
nothing and the view's NodeItem/EdgeItem objects (built for the bands in view) take over."""

from __future__ import annotations

import numpy as np
import shiboken6
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from tensorviz.core.graph_layout.bands import LayoutBands
from tensorviz.ui.autograd.graph_items import CURRENT, EDGE, FILL_OF_KIND, INK, MATCH, VISITED_FILL
from tensorviz.ui.widgets.theme import colour

DETAIL_ZOOM = 0.3  # below this scale the overview draws; at or above it the items do
MARK_VISITED, MARK_MATCH, MARK_CURRENT = 1, 2, 3
MARK_ROLES = {MARK_VISITED: VISITED_FILL, MARK_MATCH: MATCH, MARK_CURRENT: CURRENT}
OVERVIEW_KINDS = list(FILL_OF_KIND)  # colour class index → kind


def _unique_rows(values: np.ndarray) -> np.ndarray:
    """Distinct rows of small integers (device pixels clipped to ±32,000): each row packed into
    one int64 of four 16-bit fields, so one 1-D unique does it."""
    if len(values) < 2:
        return values
    fields = np.clip(values, -32000, 32000) + 32768
    packed = fields[:, 0]
    for column in range(1, values.shape[1]):
        packed = (packed << 16) | fields[:, column]
    _, first = np.unique(packed, return_index=True)
    return values[np.sort(first)]


def _draw_all(draw, kind, rows: np.ndarray) -> None:
    """draw(first, count) — QPainter.drawLines or drawRects on a C array — on rows of four
    numbers (QLineF: x1, y1, x2, y2; QRectF: left, top, width, height) read in place from
    NumPy: no Python object per line or box."""
    if len(rows):
        data = np.ascontiguousarray(rows, dtype=np.float64)
        draw(shiboken6.wrapInstance(data.ctypes.data, kind), len(data))


class OverviewItem(QGraphicsItem):
    def __init__(self, bands: LayoutBands) -> None:
        super().__init__()
        self.bands = bands
        layout = bands.layout
        self._bounds = QRectF(0, 0, layout.width, layout.height).adjusted(-4, -4, 4, 4)
        self.setZValue(-1)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.marks = np.zeros(len(bands.node_keys), dtype=np.int8)  # MARK_* per node box
        self._index = {key: i for i, key in enumerate(bands.node_keys)}

    def set_marks(self, visited, matches, current: str | None) -> None:
        """Nodes backward has visited, search matches and the current node, by graph node id,
        drawn over the overview so progress and matches show when zoomed out."""
        marks = np.zeros(len(self.bands.node_keys), dtype=np.int8)
        layout = self.bands.layout
        for nodes, mark in (
            (visited, MARK_VISITED),
            (matches, MARK_MATCH),
            ([current], MARK_CURRENT),
        ):
            for node in nodes:
                for key in layout.keys_of(node) if node else ():
                    marks[self._index[key]] = mark
        if not np.array_equal(marks, self.marks):
            self.marks = marks
            self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        world = painter.worldTransform()
        if option.levelOfDetailFromTransform(world) >= DETAIL_ZOOM:
            return
        area = option.exposedRect
        bounds = (area.left(), area.top(), area.right(), area.bottom())
        sx, sy, dx, dy = world.m11(), world.m22(), world.dx(), world.dy()
        painter.save()
        painter.setWorldTransform(QTransform())  # draw in device pixels
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        segments = self.bands.segments_within(*bounds)
        pixels = np.rint(segments * (sx, sy, sx, sy) + (dx, dy, dx, dy)).astype(np.int64)
        painter.setPen(QPen(colour(EDGE), 1))
        _draw_all(painter.drawLines, QLineF, _unique_rows(pixels))
        boxes, kinds = self.bands.boxes_within(*bounds)
        corners = np.rint(boxes * (sx, sy, sx, sy) + (dx, dy, dx, dy)).astype(np.int64)
        corners[:, 2:] = np.maximum(corners[:, 2:] - corners[:, :2], 1)  # left, top, w, h
        tall = sx * 34 >= 6  # boxes 6 px tall or more get an outline
        outline = QPen(colour(INK), 1) if tall else Qt.PenStyle.NoPen
        painter.setPen(outline)
        for kind in np.unique(kinds).tolist():
            painter.setBrush(colour(FILL_OF_KIND[OVERVIEW_KINDS[kind]]).darker(115))
            _draw_all(painter.drawRects, QRectF, _unique_rows(corners[kinds == kind]))
        if self.marks.any():  # at least 4 px, so one node in thousands still shows
            marks = self.bands.marks_within(self.marks, *bounds)
            painter.setPen(Qt.PenStyle.NoPen)
            for mark, role in MARK_ROLES.items():
                chosen = corners[marks == mark]
                if len(chosen):
                    chosen[:, :2] -= np.maximum(0, 4 - chosen[:, 2:]) // 2
                    chosen[:, 2:] = np.maximum(chosen[:, 2:], 4)
                    fill = colour(role)
                    painter.setBrush(fill.darker(120) if mark == MARK_VISITED else fill)
                    _draw_all(painter.drawRects, QRectF, _unique_rows(chosen))
        painter.restore()
