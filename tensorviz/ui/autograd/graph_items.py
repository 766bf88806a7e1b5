"""Graphics items of the autograd graph: one class per kind of item (node, edge).

Items only draw what core computed: positions and routes come from graph_layout, labels from
autograd_graph. Text is skipped below a readable zoom (level of detail)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from tensorviz.core.graph_layout.layered_layout import EdgeRoute, PlacedNode
from tensorviz.ui.widgets.theme import colour, current_zoom

# Colour roles of the theme (ui/widgets/theme.py), read when painting: both themes readable.
INK = "graph_ink"
MUTED = "graph_muted"
EDGE = "graph_edge"
GRADIENT_INK = "graph_gradient"
CURRENT = "graph_current"
SELECTED = "graph_selected"
MATCH = "graph_match"
CUT = "graph_cut"
FILL_OF_KIND = {
    "tensor": "graph_tensor",
    "backward": "graph_backward",
    "accumulate_grad": "graph_leaf",
    "rewrite": "graph_rewrite",
    "module": "graph_module",
    # the Architecture view's kinds (ui/forward)
    "op": "graph_backward",
    "input": "graph_tensor",
    "output": "graph_tensor",
    "constant": "graph_constant",
    "fold": "graph_fold",
    "failed": "graph_failed",
    "port": "graph_edge",
}
WHITE_TEXT_KINDS = ("tensor", "input", "output")  # strong fills: the text is graph_on_tensor
PILL_KINDS = ("accumulate_grad", "tensor", "input", "output", "port")
PLAIN_TEXT_KINDS = ("backward", "op")  # the many: not bold
VISITED_FILL = "graph_visited"
READABLE_ZOOM = 0.45  # below this scale edge labels would be an unreadable smear
LABEL_ZOOM = 0.28  # node labels down to here (items exist from 0.3), enlarged and elided
MIN_LABEL_SCREEN_POINTS = 3.8  # what 8.5 pt is at READABLE_ZOOM: never smaller on screen
ARROW = 7.0


def _font(bold: bool = False, size: float = 8.5) -> QFont:
    font = QFont()
    font.setPointSizeF(size)
    font.setBold(bold)
    return font


class NodeItem(QGraphicsItem):
    """A backward node, a leaf's AccumulateGrad (or one stub of a shared one), or a root."""

    def __init__(self, placed: PlacedNode, kind: str, label: str, detail: str) -> None:
        super().__init__()
        self.placed = placed
        self.node = placed.node
        self.kind = kind
        self.label = label
        self.detail = detail  # second line: shape, or "grad = …" once backward reached it
        self.cut_inputs = 0
        self.visited = False
        self.current = False
        self.match = False
        self.selected_node = False
        self.setPos(placed.x, placed.y)
        self.setZValue(1)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # the view handles clicks
        self.setToolTip(f"{label}\n{detail}".strip())

    def boundingRect(self) -> QRectF:
        w, h = self.placed.width, self.placed.height
        return QRectF(-w / 2 - 3, -h / 2 - 3, w + 6, h + 6)

    def set_state(self, **states) -> None:
        changed = False
        for name, value in states.items():
            if getattr(self, name) != value:
                setattr(self, name, value)
                changed = True
        if changed:
            self.update()

    def set_detail(self, detail: str) -> None:
        if detail != self.detail:
            self.detail = detail
            self.setToolTip(f"{self.label}\n{detail}".strip())
            self.update()

    def _fill(self) -> QColor:
        if self.current:
            return colour("graph_current_fill")
        if self.visited and self.kind == "backward":
            return colour(VISITED_FILL)
        return colour(FILL_OF_KIND.get(self.kind, FILL_OF_KIND["backward"]))

    def paint(self, painter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        w, h = self.placed.width, self.placed.height
        rect = QRectF(-w / 2, -h / 2, w, h)
        fill = self._fill()
        border = colour(INK) if self.kind not in WHITE_TEXT_KINDS else fill.darker(140)
        width = 1.0
        if self.selected_node:
            border, width = colour(SELECTED), 2.5
        elif self.current:
            border, width = colour(CURRENT), 2.5
        elif self.match:
            border, width = colour(MATCH), 2.5
        pen = QPen(border, width)
        if self.placed.stub:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(QBrush(fill))
        radius = h / 2 if self.kind in PILL_KINDS else 6
        painter.drawRoundedRect(rect, radius, radius)
        if self.cut_inputs:
            painter.setPen(QPen(colour(CUT), 1.6))
            for k in range(self.cut_inputs):
                cx = w / 2 - 8 - 9 * k
                painter.drawLine(QPointF(cx - 3, -h / 2 - 3), QPointF(cx + 3, -h / 2 + 3))
                painter.drawLine(QPointF(cx - 3, -h / 2 + 3), QPointF(cx + 3, -h / 2 - 3))
        zoom = option.levelOfDetailFromTransform(painter.worldTransform())
        if zoom < LABEL_ZOOM or (not self.label and self.kind == "port"):
            return
        # Zoomed out, the text grows (so it stays as big on screen as at READABLE_ZOOM) and is
        # elided to the box: "AddmmBack…" reads where a 3 px line would not.
        grow = max(1.0, MIN_LABEL_SCREEN_POINTS * current_zoom() / (8.5 * zoom))
        white = self.kind in WHITE_TEXT_KINDS
        ink = colour("graph_on_tensor") if white else colour(INK)
        painter.setPen(ink)
        font = _font(bold=self.kind not in PLAIN_TEXT_KINDS, size=8.5 * grow)
        painter.setFont(font)
        two_lines = bool(self.detail) and grow < 1.3  # too big for two: the label alone
        top = QRectF(-w / 2 + 4, -h / 2 + 2, w - 8, h / 2 if two_lines else h - 4)
        label = QFontMetricsF(font).elidedText(self.label, Qt.TextElideMode.ElideRight, w - 8)
        painter.drawText(top, Qt.AlignmentFlag.AlignCenter, label)
        if two_lines:
            grad = self.detail.startswith("grad")
            painter.setPen(colour(GRADIENT_INK) if grad else (ink if white else colour(MUTED)))
            small = _font(bold=grad, size=7.5 * grow)
            painter.setFont(small)
            bottom = QRectF(-w / 2 + 4, 0, w - 8, h / 2 - 2)
            detail = QFontMetricsF(small).elidedText(
                self.detail, Qt.TextElideMode.ElideRight, w - 8
            )
            painter.drawText(bottom, Qt.AlignmentFlag.AlignCenter, detail)


class EdgeItem(QGraphicsItem):
    """An input → consumer edge along core's route; an arrow where the gradient leaves.

    Drawn in the forward direction (input above, consumer below). `label` names the output of a
    multi-output node (`out 1`); `gradient` is the value backward sent along it."""

    def __init__(self, route: EdgeRoute, label: str = "", fanning: bool = False) -> None:
        super().__init__()
        self.route = route
        self.fanning = fanning  # one of several edges leaving the same node
        self.label = label
        self.gradient = ""
        self.active = False
        self.setZValue(0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._path = QPainterPath(QPointF(*route.points[0]))
        for point in route.points[1:]:
            self._path.lineTo(QPointF(*point))
        self._bounds = self._compute_bounds()

    def _label_text(self) -> str:
        return "  ".join(t for t in (self.label, self.gradient) if t)

    def _label_rect(self) -> QRectF:
        text = self._label_text()
        if not text:
            return QRectF()
        metrics = QFontMetricsF(_font(size=7.5))
        (x0, y0), (x1, y1) = self.route.points[-2], self.route.points[-1]
        width = metrics.horizontalAdvance(text) + 6
        # On the outer side of a slanted edge, so labels of edges that fan out of one node (or
        # converge on one) keep apart: fanning edges are labelled near their source.
        t = 0.35 if self.fanning else 0.5
        x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        outward_left = x1 < x0 - 1 if self.fanning else x1 > x0 + 1
        return QRectF(x - width - 4 if outward_left else x + 4, y - 7, width, 14)

    def _compute_bounds(self) -> QRectF:
        bounds = self._path.boundingRect().adjusted(-ARROW, -ARROW, ARROW, ARROW)
        label = self._label_rect()
        return bounds.united(label) if not label.isNull() else bounds

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_gradient(self, text: str, active: bool = False) -> None:
        if text == self.gradient and active == self.active:
            return
        self.prepareGeometryChange()
        self.gradient, self.active = text, active
        self._bounds = self._compute_bounds()
        self.update()

    def paint(self, painter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        pen_colour = colour(GRADIENT_INK if self.gradient else EDGE)
        painter.setPen(QPen(pen_colour, 2.2 if self.active else 1.2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)
        (x0, y0), (x1, y1) = self.route.points[-2], self.route.points[-1]
        direction = QPointF(x1 - x0, y1 - y0)
        length = max((direction.x() ** 2 + direction.y() ** 2) ** 0.5, 1e-6)
        ux, uy = direction.x() / length, direction.y() / length
        tip = QPointF(x1, y1)
        left = QPointF(x1 - ARROW * ux + ARROW * 0.5 * uy, y1 - ARROW * uy - ARROW * 0.5 * ux)
        right = QPointF(x1 - ARROW * ux - ARROW * 0.5 * uy, y1 - ARROW * uy + ARROW * 0.5 * ux)
        painter.setBrush(QBrush(pen_colour))
        painter.drawPolygon(QPolygonF([tip, left, right]))
        text = self._label_text()
        if not text or option.levelOfDetailFromTransform(painter.worldTransform()) < READABLE_ZOOM:
            return
        rect = self._label_rect()
        painter.setPen(Qt.PenStyle.NoPen)
        label_background = colour("graph_label_background")
        label_background.setAlpha(220)
        painter.setBrush(label_background)
        painter.drawRoundedRect(rect, 3, 3)
        painter.setPen(pen_colour)
        painter.setFont(_font(bold=bool(self.gradient), size=7.5))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
