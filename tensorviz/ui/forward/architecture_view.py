"""The Architecture view's scene: the Autograd graph's view (GraphView: layered layout, level
of detail, overview, pan and zoom) with module frames around the nodes, shapes on the edges,
and clicks that tell a node, a frame's body and a frame's header apart."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Signal

from tensorviz.core.forward.nested_layout import ArchitectureLayout
from tensorviz.ui.autograd.graph_items import NodeItem
from tensorviz.ui.autograd.graph_view import GraphView
from tensorviz.ui.forward.frame_items import FrameItem


class ArchitectureView(GraphView):
    item_clicked = Signal(str)  # node, box or call id ("" for empty space)
    item_toggled = Signal(str)  # a box (open it) or a frame header (close it) was clicked

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.architecture: ArchitectureLayout | None = None
        self.frame_items: dict[str, FrameItem] = {}
        self.node_clicked.connect(self.item_clicked)

    def show_architecture(self, architecture: ArchitectureLayout) -> None:
        self.architecture = architecture
        self.frame_items = {}
        self.show_layout(architecture.graph, architecture.layout)
        for frame in architecture.frames:
            item = FrameItem(frame)
            self.scene().addItem(item)
            self.frame_items[frame.call] = item

    def clear(self) -> None:
        super().clear()
        self.frame_items = {}
        self.architecture = None

    def make_node_item(self, placed, data: dict) -> NodeItem:
        item = NodeItem(placed, data["kind"], data["label"], data.get("detail", ""))
        if data["kind"] == "port":
            tip = QCoreApplication.translate(
                "ArchitectureView", "%1  (crosses the frame's border here)"
            )
            item.setToolTip(tip.replace("%1", data.get("detail", "")))
        return item

    def edge_label(self, route) -> str:
        """The tensor on the edge: shape, and dtype when it is not float32."""
        tensors = self.architecture.tensors.get((route.source, route.target), [])
        if not tensors:
            return ""
        first = tensors[0]
        text = first.shape_text() + ("" if first.dtype == "float32" else f" {first.dtype}")
        return text + (f"  +{len(tensors) - 1}" if len(tensors) > 1 else "")

    def click_at(self, point) -> None:
        for item in self.items(point):
            if isinstance(item, NodeItem):
                self.item_clicked.emit(item.node)
                return
        at = self.mapToScene(point)
        inner = None
        for frame in self.frame_items.values():
            if frame.boundingRect().contains(at) and (
                inner is None or frame.frame.depth > inner.frame.depth
            ):
                inner = frame
        if inner is not None:
            if inner.header_rect().contains(at):
                self.item_toggled.emit(inner.call)
            else:
                self.item_clicked.emit(inner.call)
            return
        super().click_at(point)

    def mouseDoubleClickEvent(self, event) -> None:
        for item in self.items(event.position().toPoint()):
            if isinstance(item, NodeItem) and item.kind in ("module", "fold"):
                self.item_toggled.emit(item.node)
                event.accept()
                return
        super().mouseDoubleClickEvent(event)

    def focus_on(self, node: str) -> None:
        frame = self.frame_items.get(node)
        if frame is not None:
            rect = frame.boundingRect()
            if self.scale_factor() < 0.8:
                self.zoom_by(0.8 / self.scale_factor())
            self.centerOn(rect.center().x(), rect.top() + 60)
            self.build_visible_items()
            return
        super().focus_on(node)
