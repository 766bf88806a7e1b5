"""One model's architecture as the Architecture area holds it: the record, its folds, the state
of the controls (depth, folding, what the user opened or closed) and the picture for that state.
The view only asks this object; the CLI uses the same calls."""

from __future__ import annotations

from tensorviz.core.forward.folding import find_folds
from tensorviz.core.forward.forward_record import ForwardRecord
from tensorviz.core.forward.nested_layout import ArchitectureLayout, layout_architecture
from tensorviz.core.forward.visible_graph import ViewState, VisibleGraph, build_visible_graph


class Architecture:
    def __init__(self, record: ForwardRecord, depth: int | None = -1) -> None:
        self.record = record
        self.folds = find_folds(record)
        self.state = ViewState(depth=self.default_depth() if depth == -1 else depth)
        self.visible: VisibleGraph | None = None

    @property
    def max_depth(self) -> int:
        """The deepest call's depth + 1: the depth at which every call is open."""
        return max((c.depth for c in self.record.calls.values()), default=-1) + 1

    def default_depth(self) -> int:
        """Open down to the first folded repeat's blocks (GPT2Block × 12 open on its parts),
        else two levels: the model and its children."""
        depths = [self.record.calls[f.members[0]].depth for f in self.folds]
        return min(min(depths) + 1 if depths else 2, self.max_depth)

    def arrange(self) -> ArchitectureLayout:
        self.visible = build_visible_graph(self.record, self.folds, self.state)
        return layout_architecture(self.visible)

    def shown_item(self, item: str) -> str:
        """What is drawn for a recorded node or call now (itself, its closed box, a fold)."""
        if self.visible is None:
            self.arrange()
        return self.visible.shown_as(item)

    def fold_of_call(self, call: str):
        return next((f for f in self.folds if call in f.members), None)

    def toggle(self, item: str) -> bool:
        """Open a closed box or close an open frame; a folded repeat opens into its members.
        Returns False for an item that is no module call."""
        if item not in self.record.calls:
            return False
        visible = self.visible
        fold = visible.fold_of.get(item) if visible else None
        if visible is not None and visible.is_frame(item):
            self.state.toggle(item, open_now=False)
        elif fold is not None and item not in self.state.expanded:
            self.state.opened_folds.add(fold.id)
        else:
            self.state.toggle(item, open_now=True)
        return True

    def set_depth(self, depth: int | None) -> None:
        """A new depth starts afresh: what was opened or closed by hand is forgotten."""
        self.state.depth = depth
        self.state.expanded.clear()
        self.state.collapsed.clear()

    def set_folding(self, fold: bool) -> None:
        self.state.fold = fold
        self.state.opened_folds.clear()
