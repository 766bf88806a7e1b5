"""GraphPanel's side of backward passes that already happened: the script's own passes
(recorded as the script ran, core/autograd/script_backward.py), shown ready to step, and a
freed graph — a preset runs its forward again on the same leaves, as a tutorial loop does; any
other freed graph says why Backward is off instead of failing."""

from __future__ import annotations

import torch
from PySide6.QtCore import QCoreApplication

from tensorviz.core.autograd.backward_steps import graph_was_freed
from tensorviz.core.autograd.presets import BuiltGraph
from tensorviz.core.autograd.script_backward import ScriptBackwardPass
from tensorviz.core.graph_layout.layered_layout import layout_graph

translate = QCoreApplication.translate


def freed_tip() -> str:
    return QCoreApplication.translate(
        "RecordedPasses",
        "The graph was freed by a backward without retain_graph (torch keeps saved tensors for "
        "one pass). Run the forward again to get a new graph — or step through the pass that ran.",
    )


class RecordedPasses:
    """Mixed into GraphPanel (which provides picker, view, built, graph, _show, ...)."""

    script_passes: list[ScriptBackwardPass]
    script_calls = 0
    graph_freed = False  # the graph shown can run no backward (its saved tensors are gone)

    def show_script_passes(self, passes: list[ScriptBackwardPass], calls: int) -> None:
        """The passes of the last script run (each a picker entry); replaces earlier ones."""
        self.script_passes, self.script_calls = list(passes), calls
        if self.source and self.source[0] == "script":
            self.source = None
        self._refill_picker()

    def script_picker_items(self) -> list[tuple[str, str]]:
        return [
            (
                translate("RecordedPasses", "script: %1").replace("%1", p.title(self.script_calls)),
                f"script:{i}",
            )
            for i, p in enumerate(self.script_passes)
        ]

    def script_pass_of(self, tensor: torch.Tensor) -> int | None:
        """The latest recorded pass whose root is this very tensor."""
        for index in reversed(range(len(self.script_passes))):
            if any(root is tensor for root in self.script_passes[index].roots):
                return index
        return None

    def show_script_pass(self, index: int) -> None:
        recorded = self.script_passes[index]
        self.source = ("script", str(index))
        self._select_in_picker()
        built = BuiltGraph(recorded.roots[0], recorded.root_label, {})
        title = recorded.title(self.script_calls)
        what = translate("RecordedPasses", "your script's %1").replace("%1", title)
        self._show(built, what, recorded.graph, recorded.record)
        self.graph_freed = not recorded.retain_graph
        self._update_step_controls()
        text = QCoreApplication.translate(
            "RecordedPasses",
            "%1 as your script ran it: %2 — Step ▶ (F10) walks them in torch's order",
        )  # the graph's count, as its details say it
        self.status_message.emit(
            text.replace("%1", title).replace("%2", recorded.graph.size_text())
        )

    def rebuild_if_freed(self) -> bool:
        """Before a Backward: a preset whose graph a pass freed runs its forward again on the
        same leaves (their .grad accumulates, as in a training loop). False: still freed."""
        if not self.graph_freed:
            return True
        if self.built is None or self.built.rebuild is None:
            return False
        edges = set(self.graph.graph.edges)
        self.built = self.built.rebuild()
        self.graph = self.built.extract()
        self.graph_freed = False
        self._choose_shown_graph()
        if set(self.graph.graph.edges) != edges:  # another structure: lay it out again
            self.layout_result = layout_graph(self.shown)
            self.view.show_layout(self.shown, self.layout_result)
        self.status_message.emit(
            QCoreApplication.translate(
                "RecordedPasses", "The forward pass ran again on the same leaves (a new graph)"
            )
        )
        return True

    def check_freed(self) -> None:
        """A graph shown fresh (a workspace tensor) may have been freed already (a script's
        backward that was not recorded)."""
        self.graph_freed = self.graph is not None and graph_was_freed(self.graph)

    def can_run_backward(self) -> bool:
        return not self.graph_freed or (self.built is not None and self.built.rebuild is not None)
