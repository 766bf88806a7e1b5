"""GraphPanel's backward: record a pass (here, or in the worker for the Backward button), step
through it node by node, zero the leaves' grads, and paint each moment onto the graph."""

from __future__ import annotations

import torch
from PySide6.QtCore import QCoreApplication

from tensorviz.core.autograd.backward_steps import BackwardRecord, StepThrough, record_backward
from tensorviz.ui.autograd.graph_details import refused_text
from tensorviz.ui.autograd.recorded_passes import freed_tip
from tensorviz.ui.autograd.step_painting import paint_step

translate = QCoreApplication.translate


class BackwardStepping:
    """Mixed into GraphPanel (which provides graph, built, view, bar, stepper, ...)."""

    def _backward_inputs(self):
        """(root, gradient, retain_graph) as the toggles say; None without a laid-out graph."""
        if self.graph is None or self.built is None or self.layout_result is None:
            return None
        if not self.rebuild_if_freed():
            self.status_message.emit(freed_tip())
            return None
        root = self.built.root
        if self.retain_grad.isChecked() and not root.is_leaf:
            root.retain_grad()
        gradient = torch.ones_like(root) if self.bar.ones_gradient.isChecked() else None
        return root, gradient, self.retain_graph.isChecked()

    def run_backward(self) -> BackwardRecord | None:
        """Record a backward pass here and now (tests, the screenshot tour); the Backward button
        runs it in the worker (start_backward)."""
        inputs = self._backward_inputs()
        if inputs is None:
            return None
        root, gradient, retain = inputs
        self._retains = retain
        record = record_backward(self.graph, root, gradient, retain_graph=retain)
        self._on_backward_recorded(self.generation, record)
        return record

    def start_backward(self) -> None:
        inputs = self._backward_inputs()
        if inputs is None or self.backward_worker.is_running():
            return
        self.bar.backward_button.setEnabled(False)
        self._retains = inputs[2]
        self.status_message.emit(
            translate("BackwardStepping", "Running backward… (the window stays usable)")
        )
        self.backward_worker.start(self.graph, *inputs, self.generation)

    def _on_backward_recorded(self, generation: int, record: BackwardRecord) -> None:
        self._update_step_controls()
        if generation != self.generation:
            return  # another graph is shown now
        if record.error:
            self.status_message.emit(record.error.replace("\n", " — "))
            self.details.show_text(lambda: refused_text(record.error))
            return
        self.passes += 1
        self.graph_freed = not self._retains
        self.stepper = StepThrough(record)
        self._apply_step()
        visited = len(record.visits)  # a plain name: pyside6-lupdate skips calls here
        message = translate(
            "BackwardStepping", "Backward pass %1 recorded: %n backward nodes visited", "", visited
        )
        self.status_message.emit(message.replace("%1", str(self.passes)))

    def step_forward(self) -> None:
        if self.stepper and self.stepper.step_forward():
            self._apply_step()

    def step_back(self) -> None:
        if self.stepper and self.stepper.step_back():
            self._apply_step()

    def run_to_end(self) -> None:
        if self.stepper:
            self.stepper.run_to_end()
            self._apply_step()

    def zero_grad(self) -> None:
        if self.graph is None:
            return
        for node in self.graph.nodes_of_kind("accumulate_grad"):
            leaf = self.graph.functions[node].variable
            if leaf.grad is not None:
                leaf.grad.zero_()
        self._apply_step(zeroed=True)
        self.status_message.emit(translate("BackwardStepping", "Every leaf's .grad is now zero"))

    def _apply_step(self, zeroed: bool = False, items=None) -> None:
        self._zeroed = zeroed
        seen = self.stepper.seen() if self.stepper else []
        current = self.stepper.current() if self.stepper else None
        paint_step(self.view, self.graph, seen, current, zeroed, self.shown, self.shown_as, items)
        if items is not None:
            return
        if current is not None:
            self.select_node(self.shown_as[current.node])
            self.view.follow(self.shown_as[current.node])
        self._mark_overview()
        self._update_step_controls()

    def _update_step_controls(self) -> None:
        has_graph = self.graph is not None and self.layout_result is not None
        self.export_button.setEnabled(has_graph)
        self.bar.show_state(has_graph, self.stepper, self.passes, self.can_run_backward())
