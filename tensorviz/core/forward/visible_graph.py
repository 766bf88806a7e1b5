"""What the Architecture view shows for one state of its controls: which module calls are open
frames and which are closed boxes, which repeats are folded, and every recorded tensor edge cut
where it crosses a frame's border (into an input port at the frame's top, out of the frame's
own output or an output port at its bottom).

Items are recorded node ids (ops, inputs, outputs, module outputs, outside tensors), call ids
(a closed box, or an open frame) and port ids ("in:<frame>:<node>:<output>" / "out:...").
A frame is a container: it holds the items whose innermost open call it is. The top container
is None. A node under the k-th member of a folded repeat is shown as the matching node of the
first member, and the edges from one member to the next (the chain) are dropped."""

from __future__ import annotations

from dataclasses import dataclass, field

from tensorviz.core.forward.folding import Fold
from tensorviz.core.forward.forward_record import ForwardRecord
from tensorviz.core.forward.tensor_structure import TensorInfo


@dataclass
class ViewState:
    depth: int | None = 2  # calls shallower than this are open frames; None: every op
    fold: bool = True  # repeated blocks drawn as one
    opened_folds: set[str] = field(default_factory=set)  # folds shown member by member
    expanded: set[str] = field(default_factory=set)  # calls opened past the depth
    collapsed: set[str] = field(default_factory=set)  # calls closed above the depth

    def toggle(self, call: str, open_now: bool) -> None:
        """The user opened or closed one call (its frame or box)."""
        (self.expanded if open_now else self.collapsed).add(call)
        (self.collapsed if open_now else self.expanded).discard(call)


@dataclass(frozen=True)
class Segment:
    """One piece of a tensor edge inside one container."""

    source: str
    target: str
    tensor: TensorInfo
    key: tuple[str, int]  # (producing node, output index): which tensor it is


@dataclass
class VisibleGraph:
    record: ForwardRecord
    folds: list[Fold]
    state: ViewState
    fold_of: dict[str, Fold] = field(default_factory=dict)  # first member's call → its fold
    contents: dict[str | None, list[str]] = field(default_factory=dict)  # container → items
    segments: dict[str | None, list[Segment]] = field(default_factory=dict)
    in_ports: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # frame → keys
    out_ports: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    shown_as: object = None  # item → the item drawn for it (a box, a fold's first member)

    def is_frame(self, item: str) -> bool:
        return item in self.contents and item is not None

    def is_box(self, item: str) -> bool:
        return item in self.record.calls and item not in self.contents


def build_visible_graph(record: ForwardRecord, folds: list[Fold], state: ViewState):
    return _Builder(record, folds, state).build()


class _Builder:
    def __init__(self, record: ForwardRecord, folds: list[Fold], state: ViewState) -> None:
        self.record, self.state = record, state
        active = [f for f in folds if state.fold and f.id not in state.opened_folds]
        self.counterpart: dict[str, str] = {}
        self.member_of: dict[str, tuple[str, int]] = {}  # member call → (fold id, position)
        for fold in active:
            self.counterpart.update(fold.counterpart)
            for position, member in enumerate(fold.members):
                self.member_of[member] = (fold.id, position)
        self.graph = VisibleGraph(record, folds, state, {f.members[0]: f for f in active})
        self._visible: dict[str, str] = {}
        self._chains: dict[str | None, list[str]] = {None: []}

    def canonical(self, item: str) -> str:
        while item in self.counterpart:
            item = self.counterpart[item]
        return item

    def is_open(self, call: str) -> bool:
        state = self.state
        if call in state.collapsed:
            return False
        depth = self.record.calls[call].depth
        return call in state.expanded or state.depth is None or depth < state.depth

    def chain(self, call: str | None) -> list[str]:
        """The calls from the outermost down to `call` (memoised)."""
        if call not in self._chains:
            self._chains[call] = [*self.chain(self.record.calls[call].parent), call]
        return self._chains[call]

    def visible(self, item: str) -> str:
        """The item shown for a canonical node or call: itself, or its outermost closed call."""
        found = self._visible.get(item)
        if found is None:
            record = self.record
            owner = record.calls[item].parent if item in record.calls else record.nodes[item].call
            found = item
            for call in self.chain(owner):
                if not self.is_open(call):
                    found = call
                    break
            self._visible[item] = found
        return found

    def container_chain(self, item: str) -> list[str]:
        """The open frames around a visible item, outermost first."""
        record = self.record
        owner = record.calls[item].parent if item in record.calls else record.nodes[item].call
        return self.chain(owner)

    def _fold_positions(self, node: str) -> dict[str, int]:
        record = self.record
        positions = {}
        for call in self.chain(record.nodes[node].call):
            if call in self.member_of:
                fold, position = self.member_of[call]
                positions[fold] = position
        return positions

    def build(self) -> VisibleGraph:
        graph, record = self.graph, self.record
        graph.contents[None] = []
        placed: set[str] = set()

        def place(item: str) -> None:
            if item in placed:
                return
            placed.add(item)
            chain = self.container_chain(item)
            for depth, frame in enumerate(chain):  # its frames first, each inside the last
                if frame not in graph.contents:
                    graph.contents[frame] = []
                    graph.contents[chain[depth - 1] if depth else None].append(frame)
                    placed.add(frame)
            if item in record.calls and self.is_open(item):
                graph.contents.setdefault(item, [])
            graph.contents[chain[-1] if chain else None].append(item)

        for node in record.nodes:
            place(self.visible(self.canonical(node)))
        for call in record.calls:  # a call with nothing recorded inside is still shown
            if self.canonical(call) == call:
                place(self.visible(call))
        seen: set[tuple] = set()
        for edge in record.edges:
            self._add_edge(edge, seen)
        graph.shown_as = lambda item: self.visible(self.canonical(item))
        return graph

    def _add_edge(self, edge, seen: set) -> None:
        source, target = self.canonical(edge.source), self.canonical(edge.target)
        if self.member_of:
            before, after = self._fold_positions(edge.source), self._fold_positions(edge.target)
            if any(after.get(fold, position) != position for fold, position in before.items()):
                return  # from one member of a folded repeat to the next: the chain itself
        shown_source, shown_target = self.visible(source), self.visible(target)
        if shown_source == shown_target:
            return
        key = (source, edge.output_index)
        outer = self.container_chain(shown_source)
        inner = self.container_chain(shown_target)
        common = 0
        while common < min(len(outer), len(inner)) and outer[common] == inner[common]:
            common += 1
        graph = self.graph
        # leaving the frames around the source, innermost first
        current = shown_source
        for frame in reversed(outer[common:]):
            own_output = record_kind(self.record, current) == "module_output" and (
                self.record.nodes[current].call == frame
            )
            if not own_output:
                port = f"out:{frame}:{key[0]}:{key[1]}"
                self._segment(frame, current, port, edge.tensor, key, seen)
                ports = graph.out_ports.setdefault(frame, [])
                if key not in ports:
                    ports.append(key)
            current = frame
        # entering the frames around the target, outermost first
        entries = []
        for frame in inner[common:]:
            port = f"in:{frame}:{key[0]}:{key[1]}"
            ports = graph.in_ports.setdefault(frame, [])
            if key not in ports:
                ports.append(key)
            entries.append((frame, port))
        level = outer[common - 1] if common else None
        first_inside = inner[common] if len(inner) > common else shown_target
        self._segment(level, current, first_inside, edge.tensor, key, seen)
        for k, (frame, port) in enumerate(entries):
            below = entries[k + 1][0] if k + 1 < len(entries) else shown_target
            self._segment(frame, port, below, edge.tensor, key, seen)

    def _segment(self, container, source, target, tensor, key, seen: set) -> None:
        marker = (container, source, target, key)
        if marker not in seen:
            seen.add(marker)
            self.graph.segments.setdefault(container, []).append(
                Segment(source, target, tensor, key)
            )


def record_kind(record: ForwardRecord, item: str) -> str:
    node = record.nodes.get(item)
    return node.kind if node is not None else "call"
