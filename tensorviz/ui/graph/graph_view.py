"""The scene of an autograd graph: places core's layout, pans, zooms, fits, reports clicks."""

from __future__ import annotations

import networkx as nx
from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView

from tensorviz.core.autograd_graph import output_count
from tensorviz.core.graph_layout import GraphLayout, node_detail
from tensorviz.ui.graph.graph_items import EdgeItem, NodeItem

MARGIN = 24.0
MIN_SCALE, MAX_SCALE = 0.02, 4.0
MAX_FIT_SCALE = 1.4


class GraphView(QGraphicsView):
    node_clicked = Signal(str)  # node id ("" for empty space)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)
        self.setBackgroundBrush(QColor("#fbfcfe"))
        self.node_items: dict[str, list[NodeItem]] = {}
        self.edge_items: dict[tuple[str, str], EdgeItem] = {}
        self._press_position = None

    # --- content ---------------------------------------------------------------------------------

    def show_layout(self, graph: nx.DiGraph, layout: GraphLayout) -> None:
        scene = self.scene()
        scene.clear()
        self.node_items, self.edge_items = {}, {}
        for placed in layout.nodes.values():
            data = graph.nodes[placed.node]
            item = NodeItem(placed, self._kind(data), data["label"], node_detail(data))
            item.cut_inputs = len(data.get("cut_inputs", ()))
            scene.addItem(item)
            self.node_items.setdefault(placed.node, []).append(item)
        multi = {n for n in graph.nodes if output_count(graph, n) > 1}
        fanning = {n for n in graph.nodes if graph.out_degree(n) > 1} - set(layout.stubs_of)
        for route in layout.edges:
            outputs = ",".join(str(nr) for nr in route.output_nrs)
            label = f"out {outputs}" if route.source in multi else ""
            item = EdgeItem(route, label, fanning=route.source in fanning)
            scene.addItem(item)
            self.edge_items[(route.source, route.target)] = item
        scene.setSceneRect(
            QRectF(-MARGIN, -MARGIN, layout.width + 2 * MARGIN + 60, layout.height + 2 * MARGIN)
        )
        self.fit()

    @staticmethod
    def _kind(data: dict) -> str:
        return "rewrite" if data.get("rewrite") else data["kind"]

    def items_of(self, node: str) -> list[NodeItem]:
        return self.node_items.get(node, [])

    # --- navigation ------------------------------------------------------------------------------

    def scale_factor(self) -> float:
        return self.transform().m11()

    def fit(self) -> None:
        """Whole graph in view; a small graph is enlarged a little, never blown up."""
        rect = self.scene().sceneRect()
        if rect.isEmpty():
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        if self.scale_factor() > MAX_FIT_SCALE:
            self.resetTransform()
            self.scale(MAX_FIT_SCALE, MAX_FIT_SCALE)
            self.centerOn(rect.center())

    def zoom_by(self, factor: float) -> None:
        target = min(max(self.scale_factor() * factor, MIN_SCALE), MAX_SCALE)
        factor = target / self.scale_factor()
        self.scale(factor, factor)

    def focus_on(self, node: str) -> None:
        items = self.items_of(node)
        if not items:
            return
        if self.scale_factor() < 0.8:
            self.zoom_by(1.0 / self.scale_factor())
        self.centerOn(items[0])

    def wheelEvent(self, event) -> None:
        self.zoom_by(1.15 ** (event.angleDelta().y() / 120))
        event.accept()

    def mousePressEvent(self, event) -> None:
        self._press_position = event.position()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        start, self._press_position = self._press_position, None
        if start is None or (event.position() - start).manhattanLength() > 4:
            return  # a drag pans; only a click selects
        self.click_at(event.position().toPoint())

    def click_at(self, point) -> None:
        for item in self.items(point):
            if isinstance(item, NodeItem):
                self.node_clicked.emit(item.node)
                return
        self.node_clicked.emit("")
