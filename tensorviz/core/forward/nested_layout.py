"""The Architecture view's picture: each open frame's contents laid out by core's layered layout
(no Graphviz), inside out; a frame is then one big box in its parent's layout, and everything is
moved to absolute coordinates at the end. Edges that cross a frame's border are drawn through
the frame's ports, so a tensor's line runs on into the frame it enters.

The result is a flat graph of every box and port drawn (for the same scene the Autograd graph
uses), its GraphLayout, and the frames to draw around them."""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from tensorviz.core.forward.visible_graph import VisibleGraph
from tensorviz.core.graph_layout.layered_layout import (
    EdgeRoute,
    GraphLayout,
    PlacedNode,
    layout_graph,
    node_width,
)
from tensorviz.core.translation import _, ngettext

FRAME_PAD = 14.0
FRAME_HEADER = 28.0
PORT_SIZE = 10.0
NO_HUBS = 10**9  # a frame's input read by many ops keeps one port, not one stub per use


def params_text(count: int) -> str:
    if count >= 10**9:
        return _("{count} B params").format(count=f"{count / 1e9:.1f}")
    if count >= 10**6:
        return _("{count} M params").format(count=f"{count / 1e6:.1f}")
    return ngettext("{count} param", "{count} params", count).format(count=f"{count:,}")


@dataclass(frozen=True)
class PlacedFrame:
    call: str  # the call (for a fold: its first member)
    left: float
    top: float
    right: float
    bottom: float
    title: str
    depth: int  # how many frames are around it
    fold: str = ""  # the fold id when it stands for a folded repeat
    failed: bool = False  # the call did not return (the forward raised inside it)


@dataclass
class ArchitectureLayout:
    graph: nx.DiGraph  # every box and port drawn; node attrs kind, label, detail, item
    layout: GraphLayout  # absolute positions; frames are not nodes of it
    frames: list[PlacedFrame] = field(default_factory=list)
    tensors: dict[tuple[str, str], list] = field(default_factory=dict)  # edge → TensorInfos
    frame_of_item: dict[str, str] = field(default_factory=dict)  # any item → its frame


class _Composer:
    def __init__(self, visible: VisibleGraph) -> None:
        self.visible = visible
        self.record = visible.record
        self.local: dict[str | None, GraphLayout] = {}
        self.size: dict[str, tuple[float, float]] = {}

    # --- what each item looks like ---------------------------------------------------------------

    def short_name(self, call: str, name: str) -> str:
        """A module's name inside its parent's frame: `attn` in the frame of `h.5`."""
        parent = self.record.calls[call].parent
        prefix = self.record.calls[parent].module + "." if parent else ""
        return name.removeprefix(prefix) if prefix != "." else name

    def call_title(self, call: str) -> str:
        record, info = self.record, self.record.calls[call]
        fold = self.visible.fold_of.get(call)
        if fold is not None:
            total = sum(self._params(member) for member in fold.members)
            names = f"{self.short_name(call, fold.first_name)} … "
            names += self.short_name(fold.members[-1], fold.last_name)
            return f"{names} · {fold.label} · {params_text(total)}"
        params = self._params(call)
        name = self.short_name(call, info.title) if info.module else _("(model)")
        extra = f" · {params_text(params)}" if record.modules and params else ""
        return f"{name} · {info.class_name}{extra}"

    def _params(self, call: str) -> int:
        module = self.record.modules.get(self.record.calls[call].module)
        return module.total_params if module is not None else 0

    def item_data(self, item: str) -> dict:
        record = self.record
        if item.startswith(("in:", "out:")):
            return {
                "kind": "port",
                "label": "",
                "detail": "",
                "item": item,
                "box_width": PORT_SIZE,
                "box_height": PORT_SIZE,
                "rank": "top" if item.startswith("in:") else "",
            }
        if item in record.calls:
            call = record.calls[item]
            fold = self.visible.fold_of.get(item)
            outputs = ", ".join(t.shape_text() for _unused, t in call.outputs[:2])
            name = self.short_name(item, call.title)
            if fold is not None:
                last = self.short_name(fold.members[-1], fold.last_name)
                label = f"{name} … {last} · {fold.label}"
            else:
                label = f"{name} · {call.class_name}" if call.module else call.class_name
            parts = [f"→ {outputs}"] if outputs else []
            params = sum(self._params(m) for m in fold.members) if fold else self._params(item)
            if params:
                parts.append(params_text(params))
            detail = " · ".join(parts) if call.finished else _("raised here")
            kind = "fold" if fold else "module"
            data = {"kind": kind, "label": label, "detail": detail, "item": item}
            if item in self.size:
                width, height = self.size[item]
                data.update(kind="frame", box_width=width, box_height=height)
            else:
                data["box_width"] = node_width(label, detail)
            return data
        node = record.nodes[item]
        detail = ", ".join(t.shape_text() for t in node.outputs[:2])
        if len(node.outputs) > 2:
            detail += " …"
        if node.kind == "module_output":
            return {
                "kind": "port",
                "label": "",
                "detail": detail,
                "item": item,
                "box_width": PORT_SIZE,
                "box_height": PORT_SIZE,
            }
        kind = {"op": "failed" if node.failed else "op", "tensor": "constant"}.get(
            node.kind, node.kind
        )
        label = node.label + (_("  (in place)") if node.in_place else "")
        return {
            "kind": kind,
            "label": label,
            "detail": detail,
            "item": item,
            "box_width": node_width(label, detail),
        }

    # --- inside out ------------------------------------------------------------------------------

    def lay_out(self, container: str | None) -> GraphLayout:
        visible = self.visible
        for item in visible.contents[container]:
            if visible.is_frame(item):
                inner = self.lay_out(item)
                width = max(inner.width + 2 * FRAME_PAD, 7.0 * len(self.call_title(item)) + 40.0)
                self.size[item] = (width, inner.height + FRAME_HEADER + FRAME_PAD)
        graph = nx.DiGraph()
        if container is not None:
            for key in visible.in_ports.get(container, ()):
                port = f"in:{container}:{key[0]}:{key[1]}"
                graph.add_node(port, **self.item_data(port))
        for item in visible.contents[container]:
            graph.add_node(item, **self.item_data(item))
        if container is not None:
            for key in visible.out_ports.get(container, ()):
                port = f"out:{container}:{key[0]}:{key[1]}"
                graph.add_node(port, **self.item_data(port))
        for segment in visible.segments.get(container, ()):
            if not graph.has_edge(segment.source, segment.target):
                graph.add_edge(segment.source, segment.target, output_nrs=(segment.key[1],))
        layout = layout_graph(graph, hub_min_uses=NO_HUBS)
        self.local[container] = layout
        return layout

    # --- outside in ------------------------------------------------------------------------------

    def compose(self) -> ArchitectureLayout:
        self.lay_out(None)
        flat = nx.DiGraph()
        result = ArchitectureLayout(flat, GraphLayout({}, [], [], 0.0, 0.0))
        self.absolute: dict[str, PlacedNode] = {}
        self._place(None, 0.0, 0.0, 0, result)
        self._route(None, result)
        layout = result.layout
        if layout.nodes or result.frames:
            layout.width = max(
                [p.x + p.width / 2 for p in layout.nodes.values()]
                + [f.right for f in result.frames]
            )
            layout.height = max(
                [p.y + p.height / 2 for p in layout.nodes.values()]
                + [f.bottom for f in result.frames]
            )
        return result

    def _place(self, container, dx: float, dy: float, depth: int, result) -> None:
        local = self.local[container]
        graph = self.visible
        for key, placed in local.nodes.items():
            x, y = placed.x + dx, placed.y + dy
            moved = PlacedNode(key, key, x, y, placed.width, placed.height)
            self.absolute[key] = moved
            if container is not None:
                result.frame_of_item[key] = container
            if graph.is_frame(key):
                call = self.record.calls[key]
                fold = graph.fold_of.get(key)
                result.frames.append(
                    PlacedFrame(
                        key,
                        x - placed.width / 2,
                        y - placed.height / 2,
                        x + placed.width / 2,
                        y + placed.height / 2,
                        self.call_title(key),
                        depth,
                        fold.id if fold else "",
                        not call.finished,
                    )
                )
                left, top = x - placed.width / 2 + FRAME_PAD, y - placed.height / 2 + FRAME_HEADER
                self._place(key, left, top, depth + 1, result)
                continue
            data = self.item_data(key)
            result.graph.add_node(key, **data)
            result.layout.nodes[key] = moved

    def _exit_node(self, frame: str, key: tuple[str, int]) -> str:
        node = self.record.nodes.get(key[0])
        if node is not None and node.kind == "module_output" and node.call == frame:
            return key[0]
        return f"out:{frame}:{key[0]}:{key[1]}"

    def _route(self, container, result) -> None:
        local = self.local[container]
        routes = {(r.source, r.target): r for r in local.edges}
        for segment in self.visible.segments.get(container, ()):
            route = routes[(segment.source, segment.target)]
            points = [(x + self._dx(container), y + self._dy(container)) for x, y in route.points]
            source, target = segment.source, segment.target
            if self.visible.is_frame(source):
                source = self._exit_node(source, segment.key)
                points[0] = (self.absolute[source].x, points[0][1])
            if self.visible.is_frame(target):
                target = f"in:{target}:{segment.key[0]}:{segment.key[1]}"
                points[-1] = (self.absolute[target].x, points[-1][1])
            self._add_route(result, source, target, points, segment)
        for item in self.visible.contents[container]:
            if self.visible.is_frame(item):
                self._route(item, result)

    def _add_route(self, result, source, target, points, segment) -> None:
        tensors = result.tensors.setdefault((source, target), [])
        tensors.append(segment.tensor)
        if len(tensors) > 1:
            return
        result.graph.add_edge(source, target, output_nrs=(segment.key[1],))
        result.layout.edges.append(EdgeRoute(source, target, tuple(points), (segment.key[1],)))

    def _dx(self, container) -> float:
        return self._offset(container)[0]

    def _dy(self, container) -> float:
        return self._offset(container)[1]

    def _offset(self, container) -> tuple[float, float]:
        if container is None:
            return 0.0, 0.0
        frame = self.absolute[container]
        return (frame.x - frame.width / 2 + FRAME_PAD, frame.y - frame.height / 2 + FRAME_HEADER)


def layout_architecture(visible: VisibleGraph) -> ArchitectureLayout:
    return _Composer(visible).compose()
