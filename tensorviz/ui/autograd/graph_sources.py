"""GraphPanel's choice of graph: the picker (presets, workspace tensors, the script's passes, the
Architecture area's forward) and what each entry shows. Its texts keep the GraphPanel context."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from tensorviz.core.autograd.graph import why_no_grad_fn
from tensorviz.core.autograd.presets import PRESETS, BuiltGraph
from tensorviz.ui.autograd.graph_details import no_graph_text

translate = QCoreApplication.translate


class GraphSources:
    """Mixed into GraphPanel (which provides picker, workspace, source, _show, _clear, ...)."""

    def graph_tensor_names(self) -> list[str]:
        return [n for n, t in self.workspace.tensors().items() if t.grad_fn is not None]

    def _refill_picker(self) -> None:
        self.picker.blockSignals(True)
        self.picker.clear()
        for key, preset in PRESETS.items():
            self.picker.addItem(
                translate("GraphPanel", "preset: %1").replace("%1", preset.title), f"preset:{key}"
            )
        for name in self.graph_tensor_names():
            self.picker.addItem(
                translate("GraphPanel", "workspace: %1").replace("%1", name), f"tensor:{name}"
            )
        for text, data in self.script_picker_items():
            self.picker.addItem(text, data)
        if self.source == ("forward", ""):  # named until the next choice
            self.picker.addItem(self._forward_item_text(), "forward:")
        index = self.picker.findData(":".join(self.source)) if self.source else -1
        self.picker.setCurrentIndex(max(index, 0))
        self.picker.blockSignals(False)

    def _on_picker_changed(self, index: int) -> None:
        kind, key = self.picker.itemData(index).split(":", 1)
        if kind == "forward":
            return  # the forward's graph is already shown
        if kind == "preset":
            self.show_preset(key)
        elif kind == "script":
            self.show_script_pass(int(key))
        else:
            self.show_tensor(key)

    def show_preset(self, key: str) -> None:
        self.source = ("preset", key)
        self._select_in_picker()
        self._show(PRESETS[key].build(), f"{PRESETS[key].code}")

    def show_tensor(self, name: str) -> None:
        self.source = ("tensor", name)
        self._select_in_picker()
        tensor = self.workspace.tensor(name)
        if tensor.grad_fn is None:
            made_by = self.workspace.entry(name).provenance.op
            self._clear(lambda: no_graph_text(f"{name}: {why_no_grad_fn(tensor, made_by)}"))
            return
        recorded = self.script_pass_of(tensor)
        if recorded is not None:  # the script ran its backward: show that very pass
            self.show_script_pass(recorded)
            return
        what = translate("GraphPanel", "workspace tensor %1").replace("%1", name)
        self._show(BuiltGraph(tensor, name, self.workspace.tensors()), what)
        self.check_freed()
        self._update_step_controls()

    def show_forward(self, recorded, op: str = "") -> None:
        """The backward graph of a forward the Architecture area recorded, on the node its op
        `op` made (found by the tag core wrote on the output's grad_fn)."""
        from tensorviz.core.forward.tensor_structure import flatten_tensors

        roots = [t for _, t in flatten_tensors(recorded.outputs) if t.grad_fn is not None]
        if not roots:
            return
        names = {}
        for prefix, module in recorded.modules.items():
            dotted = f"{prefix}." if prefix else ""
            names.update({dotted + n: p for n, p in module.named_parameters()})
        record = recorded.architecture.record
        self.source = ("forward", "")
        self._forward_title = record.title
        self._refill_picker()
        what = translate("GraphPanel", "the output of %1").replace("%1", record.title)
        self._show(BuiltGraph(roots[0], "output", names), what)
        self.select_forward_op(record.serial, op)

    def select_forward_op(self, serial: int, op: str) -> bool:
        """Select and show the node whose grad_fn the forward op `op` made."""
        if self.graph is None or not op:
            return False
        node = next((n for n, d in self.graph.graph.nodes(data=True)
                     if d.get("forward") == (serial, op)), None)  # fmt: skip
        if node is None:
            self.status_message.emit(
                translate("GraphPanel", "That op made no backward node (no input needed grad)")
            )
            return False
        shown = self.shown_as.get(node, node)
        self.select_node(shown)
        self.view.focus_on(shown)
        return True

    def _forward_item_text(self) -> str:
        return translate("GraphPanel", "architecture: output of %1").replace(
            "%1", self._forward_title
        )

    def _select_in_picker(self) -> None:
        if self.source is None:
            return
        index = self.picker.findData(":".join(self.source))
        if index >= 0 and index != self.picker.currentIndex():
            self.picker.setCurrentIndex(index)
