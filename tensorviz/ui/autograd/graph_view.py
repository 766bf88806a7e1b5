"""The scene of an autograd graph: places core's layout, pans, zooms, fits, reports clicks.

Big graphs stay cheap: an OverviewItem paints the whole layout when zoomed out, and node and
edge items are built only for the bands of layers in view once zoomed in (level of detail)."""

from __future__ import annotations

import networkx as nx
from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView

from tensorviz.core.autograd.graph import output_count
from tensorviz.core.gc_pause import gc_paused
from tensorviz.core.graph_layout.bands import LayoutBands
from tensorviz.core.graph_layout.layered_layout import GraphLayout, node_detail
from tensorviz.ui.autograd.graph_items import EdgeItem, NodeItem
from tensorviz.ui.autograd.graph_overview import DETAIL_ZOOM, OVERVIEW_KINDS, OverviewItem
from tensorviz.ui.widgets.appearance_following import FollowsAppearance
from tensorviz.ui.widgets.theme import colour, current_zoom

MARGIN = 24.0
MIN_SCALE, MAX_SCALE = 0.02, 4.0
MAX_FIT_SCALE = 1.4


class GraphView(FollowsAppearance, QGraphicsView):
    node_clicked = Signal(str)  # node id ("" for empty space)
    items_created = Signal(list, list)  # NodeItems, EdgeItems just built for bands in view

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)
        self._zoom = current_zoom()  # View → Zoom as last applied to this view's scale
        self.restyle_if_changed()
        self.node_items: dict[str, list[NodeItem]] = {}
        self.edge_items: dict[tuple[str, str], EdgeItem] = {}
        self._press_position = None
        self.clear()

    # --- content ---------------------------------------------------------------------------------
    # Items are built per band of layers, only for the bands in view at a zoom where they can be
    # told apart (DETAIL_ZOOM); the OverviewItem paints the rest. `node_items`/`edge_items` hold
    # the items built so far; `items_created` tells the panel so it can give them their state.

    def show_layout(self, graph: nx.DiGraph, layout: GraphLayout) -> None:
        scene = self.scene()
        # Detached while it changes: the scene marks changed items dirty through a queued call
        # that repaints its views at once when it runs; with no view attached it only clears the
        # marks, and re-attaching asks for one ordinary update, so the first paint is the only one
        # (not a second, identical paint when the event loop reaches the queued call).
        self.setScene(None)
        scene.clear()
        self._forget_items()
        self._graph, self._layout = graph, layout
        kinds = {kind: i for i, kind in enumerate(OVERVIEW_KINDS)}
        kind = {node: kinds[self._kind(data)] for node, data in graph.nodes(data=True)}
        kind_of = {key: kind[p.node] for key, p in layout.nodes.items()}
        with gc_paused():  # tens of thousands of small arrays and lists, all kept
            self._bands = LayoutBands(layout, kind_of)
        self.overview = OverviewItem(self._bands)
        scene.addItem(self.overview)
        scene.setSceneRect(
            QRectF(-MARGIN, -MARGIN, layout.width + 2 * MARGIN + 60, layout.height + 2 * MARGIN)
        )
        QCoreApplication.sendPostedEvents(scene, QEvent.Type.MetaCall)
        self.setScene(scene)
        self.fit()
        self.build_visible_items()

    def clear(self) -> None:
        self.scene().clear()
        self._forget_items()

    def _forget_items(self) -> None:
        self.overview = None
        self.node_items, self.edge_items = {}, {}
        self._graph = self._layout = self._bands = None
        self._built_bands: set[int] = set()
        self._built_keys: set[str] = set()

    def _build_band(self, band: int) -> tuple[list[NodeItem], list[EdgeItem]]:
        self._built_bands.add(band)
        graph, layout, scene = self._graph, self._layout, self.scene()
        nodes, edges = [], []
        for key in self._bands.nodes_in(band):
            placed = layout.nodes[key]
            item = self.make_node_item(placed, graph.nodes[placed.node])
            scene.addItem(item)
            self.node_items.setdefault(placed.node, []).append(item)
            nodes.append(item)
        for index in self._bands.edges_in(band):
            route = layout.edges[index]
            if (route.source, route.target) in self.edge_items:
                continue
            fanning = graph.out_degree(route.source) > 1 and route.source not in layout.stubs_of
            item = EdgeItem(route, self.edge_label(route), fanning=fanning)
            scene.addItem(item)
            self.edge_items[(route.source, route.target)] = item
            edges.append(item)
        return nodes, edges

    def make_node_item(self, placed, data: dict) -> NodeItem:
        """The item of one node (the Architecture view gives its own texts)."""
        item = NodeItem(placed, self._kind(data), data["label"], node_detail(data))
        item.cut_inputs = len(data.get("cut_inputs", ()))
        return item

    def edge_label(self, route) -> str:
        """`out 1` on the edges of a node with several outputs (split, chunk, unbind)."""
        if output_count(self._graph, route.source) < 2:
            return ""
        return "out " + ",".join(str(nr) for nr in route.output_nrs)

    def _build_bands(self, bands) -> None:
        nodes, edges = [], []
        for band in bands:
            if band not in self._built_bands:
                new_nodes, new_edges = self._build_band(band)
                nodes += new_nodes
                edges += new_edges
        if nodes or edges:
            self.items_created.emit(nodes, edges)

    def build_visible_items(self) -> None:
        """Items for the bands in view (with a band of margin), once zoomed in enough."""
        if self._bands is None or self.scale_factor() < DETAIL_ZOOM:
            return
        area = self.mapToScene(self.viewport().rect()).boundingRect()
        margin = self._bands.band_height
        self._build_bands(self._bands.bands_between(area.top() - margin, area.bottom() + margin))

    def build_all_items(self) -> None:
        """Every item (for export, which paints the whole scene at full detail)."""
        if self._bands is not None:
            self._build_bands(range(self._bands.band_count))

    def paintEvent(self, event) -> None:
        self.build_visible_items()
        super().paintEvent(event)

    @staticmethod
    def _kind(data: dict) -> str:
        return "rewrite" if data.get("rewrite") else data["kind"]

    def items_of(self, node: str) -> list[NodeItem]:
        """The items built so far for `node` (all its stubs' items for a split hub)."""
        return self.node_items.get(node, [])

    def node_position(self, node: str) -> QPointF | None:
        keys = self._layout.keys_of(node) if self._layout is not None else []
        if not keys:
            return None
        placed = self._layout.nodes[keys[0]]
        return QPointF(placed.x, placed.y)

    # --- navigation ------------------------------------------------------------------------------

    def scale_factor(self) -> float:
        return self.transform().m11()

    def restyle(self) -> None:
        """The theme's canvas behind the items (which read their colours when painting), and
        View → Zoom applied to the picture's scale: a projector's 200 % draws it twice as big."""
        self.setBackgroundBrush(colour("canvas"))
        ratio = current_zoom() / getattr(self, "_zoom", current_zoom())
        self._zoom = current_zoom()
        scene = self.scene()
        if scene is None:
            return
        if ratio != 1.0 and not scene.sceneRect().isEmpty():
            self.zoom_by(ratio)
        scene.update()

    def fit(self) -> None:
        """Whole graph in view; a small graph is enlarged a little (more at a bigger View →
        Zoom), never blown up."""
        rect = self.scene().sceneRect()
        if rect.isEmpty():
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        largest = MAX_FIT_SCALE * current_zoom()
        if self.scale_factor() > largest:
            self.resetTransform()
            self.scale(largest, largest)
            self.centerOn(rect.center())

    def zoom_by(self, factor: float) -> None:
        target = min(max(self.scale_factor() * factor, MIN_SCALE), MAX_SCALE)
        factor = target / self.scale_factor()
        self.scale(factor, factor)

    def focus_on(self, node: str) -> None:
        position = self.node_position(node)
        if position is None:
            return
        if self.scale_factor() < 0.8:
            self.zoom_by(1.0 / self.scale_factor())
        self.centerOn(position)
        self.build_visible_items()

    def follow(self, node: str) -> None:
        """Keep `node` in view (stepping a backward): recentre, at the same zoom, only when it
        is near the edge or outside."""
        position = self.node_position(node)
        if position is None:
            return
        area = self.mapToScene(self.viewport().rect()).boundingRect()
        inner = area.adjusted(
            area.width() * 0.1, area.height() * 0.1, -area.width() * 0.1, -area.height() * 0.1
        )
        if not inner.contains(position):
            self.centerOn(position)
            self.build_visible_items()

    def set_marks(self, visited, matches, current: str | None) -> None:
        """Progress and search matches on the zoomed-out overview (the items show their own)."""
        if self.overview is not None:
            self.overview.set_marks(visited, matches, current)

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
        if self._bands is not None:  # zoomed out: the overview's boxes have no items
            at = self.mapToScene(point)
            self.node_clicked.emit(self._bands.node_at(at.x(), at.y()))
            return
        self.node_clicked.emit("")
