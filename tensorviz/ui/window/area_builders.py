"""Builds the real panel of each area once torch has loaded, all sharing one workspace."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from tensorviz.core.environment import EnvironmentReport
from tensorviz.core.tensors.workspace import Workspace


@dataclass
class AreaContext:
    workspace: Workspace
    environment: EnvironmentReport
    settings: object = None  # AppSettings: what an area keeps across restarts (the script text)


def _build_workbench(context: AreaContext) -> QWidget:
    from tensorviz.ui.workbench.workbench_panel import WorkbenchPanel

    return WorkbenchPanel(context.workspace, context.environment.devices)


def _build_script(context: AreaContext) -> QWidget:
    from tensorviz.ui.script.script_panel import ScriptPanel

    return ScriptPanel(context.workspace, context.settings)


def _build_layout(context: AreaContext) -> QWidget:
    from tensorviz.ui.memory.layout_panel import LayoutPanel

    return LayoutPanel(context.workspace)


def _build_training(context: AreaContext) -> QWidget:
    from tensorviz.ui.training.training_area import TrainingArea

    return TrainingArea(context.environment.devices)


def _build_runs(_context: AreaContext) -> QWidget:
    from tensorviz.ui.watch.runs_panel import RunsPanel

    return RunsPanel()


def _build_files(context: AreaContext) -> QWidget:
    from tensorviz.ui.files.files_panel import FilesPanel

    return FilesPanel(context.workspace)


def _build_compare(_context: AreaContext) -> QWidget:
    from tensorviz.ui.diff.compare_panel import ComparePanel

    return ComparePanel()


def _build_graph(context: AreaContext) -> QWidget:
    from tensorviz.ui.autograd.graph_panel import GraphPanel

    return GraphPanel(context.workspace)


def _build_architecture(context: AreaContext) -> QWidget:
    from tensorviz.ui.forward.architecture_panel import ArchitecturePanel

    return ArchitecturePanel()


# In navigation order; each panel module is imported only when torch has loaded.
BUILDERS: dict[str, Callable[[AreaContext], QWidget]] = {
    "workbench": _build_workbench,
    "script": _build_script,
    "layout": _build_layout,
    "architecture": _build_architecture,
    "graph": _build_graph,
    "training": _build_training,
    "runs": _build_runs,
    "files": _build_files,
    "compare": _build_compare,
}


def link_new_panel(key: str, panel: QWidget, window) -> None:
    """Connect a panel that was just built to the areas it feeds or is fed by.

    Areas are built on first use, so a link reaches a target only if it is built by then
    (`window.built_panel`), except where the user asked for the target (the loss graph)."""
    workspace = window.context.workspace

    def show_in_layout(name: str) -> None:
        if not name:
            return
        window.tensor_in_focus = name  # what the Memory layout opens on if built later
        layout = window.built_panel("layout")
        if layout is not None:
            layout.show_tensor(name)

    if key == "workbench":  # the selected tensor is the one the Memory layout shows
        panel.selection_changed.connect(show_in_layout)
        show_in_layout(panel.selected or "")
        link_workbench_to_models(panel, window)
    elif key == "files":  # a tensor sent from a file is shown in the Memory layout
        panel.tensors_sent.connect(lambda names: show_in_layout(names[0]))
        from tensorviz.ui.diff.compare_links import link_files_panel

        link_files_panel(panel, window)  # its menus ask the Compare area for a comparison
    elif key == "runs":  # opens the run folder asked for before it was built
        from tensorviz.ui.watch.run_links import link_runs_panel

        link_runs_panel(panel, window)
    elif key == "compare":  # lists the Files area's open files, reuses what they read
        from tensorviz.ui.diff.compare_links import link_compare_panel

        link_compare_panel(panel, window)
    elif key == "layout" and window.tensor_in_focus in workspace:  # the latest one picked
        panel.show_tensor(window.tensor_in_focus)
    elif key == "script":  # a captured tensor opens in the area the user asked for
        link_script_panel(panel, window, show_in_layout)
    elif key == "architecture":  # "Backward graph" opens the Autograd graph of its output

        def show_backward(request) -> None:
            window.panel("graph").show_forward(*request)
            window.show_area("graph")

        panel.backward_requested.connect(show_backward)
        link_backward_to_forward(window)
    elif key == "graph":
        link_backward_to_forward(window)
    elif key == "training":  # Training's loss graphs open in the Autograd graph area

        def open_graph(name: str) -> None:
            window.panel("graph").show_tensor(name)
            window.show_area("graph")

        def open_loss_graph(tensors: dict) -> None:
            from tensorviz.core.training.trainer import add_loss_graph_to_workspace

            open_graph(add_loss_graph_to_workspace(workspace, tensors))

        def open_network_graph(tensors: dict, loss_name: str) -> None:
            from tensorviz.core.training.playground_graph import add_network_graph_to_workspace

            open_graph(add_network_graph_to_workspace(workspace, tensors, loss_name))

        panel.loss_graph_built.connect(open_loss_graph)
        panel.network_graph_built.connect(open_network_graph)

        def open_network_architecture(model, example) -> None:
            """The playground's network (a rebuilt copy, never the one training) module by
            module in the Architecture area."""
            from tensorviz.core.forward.presets import ForwardSubject

            architecture = window.panel("architecture")
            key = "training:network"
            text = f"Training: the playground's network on its {len(example)} samples"
            architecture.add_subject(key, text, lambda: ForwardSubject(model, (example,), "net(x)"))
            architecture.show_subject(key)
            window.show_area("architecture")

        panel.architecture_requested.connect(open_network_architecture)
        panel.set_architecture_available(True)


def link_script_panel(panel, window, show_in_layout: Callable[[str], None]) -> None:
    def open_graph(name: str) -> None:
        window.panel("graph").show_tensor(name)
        window.show_area("graph")

    def open_workbench(name: str) -> None:
        window.panel("workbench").select(name)
        window.show_area("workbench")

    def open_layout(name: str) -> None:
        window.panel("layout")  # built now, so show_in_layout reaches it
        show_in_layout(name)
        window.show_area("layout")

    def hand_passes_to_graph(recorder) -> None:  # the script's own backward, ready to step
        window.panel("graph").show_script_passes(recorder.passes, recorder.calls)

    panel.graph_requested.connect(open_graph)
    panel.backward_recorded.connect(hand_passes_to_graph)
    panel.architecture_requested.connect(lambda call: open_architecture(window, call))
    panel.workbench_requested.connect(open_workbench)
    panel.layout_requested.connect(open_layout)


def open_architecture(window, call) -> None:
    """ "Architecture of model(x)": the Architecture area records that call of the script's."""
    from tensorviz.core.forward.presets import ForwardSubject

    def subject():
        return ForwardSubject(call.module, call.args, call.text)

    panel = window.panel("architecture")
    text = QCoreApplication.translate("AreaLinks", "script: %1").replace("%1", call.text)
    panel.add_subject(f"script:{call.name}", text, subject)
    panel.show_subject(f"script:{call.name}")
    window.show_area("architecture")


def model_call_of(window, name: str):
    """The script's model call a workspace tensor belongs to (`model[0].weight` → model(x))."""
    script = window.built_panel("script")
    workspace = window.context.workspace
    if script is None or not name or name not in workspace:
        return None
    provenance = workspace.entry(name).provenance
    path = str(provenance.params.get("path", "")) if provenance.op == "script" else ""
    head = path.split(".", 1)[0].split("[", 1)[0]
    return next((c for c in script.model_calls if c.name == head and path != head), None)


def link_workbench_to_models(panel, window) -> None:
    """A parameter of a model the script called offers that model's architecture."""

    def offer(name: str) -> None:
        call = model_call_of(window, name)
        offered = QCoreApplication.translate("AreaLinks", "Architecture of %1")
        panel.offer_architecture(offered.replace("%1", call.text) if call else "")

    def open_selected() -> None:
        call = model_call_of(window, panel.selected or "")
        if call is not None:
            open_architecture(window, call)

    panel.selection_changed.connect(offer)
    panel.architecture_requested.connect(open_selected)


def link_backward_to_forward(window) -> None:
    """A backward node clicked in the Autograd graph selects the forward op that made it (found
    by the output tensor's grad_fn, which core tags); connected once both panels exist."""
    forward, backward = window.built_panel("architecture"), window.built_panel("graph")
    if forward is None or backward is None or getattr(window, "_forward_linked", False):
        return
    window._forward_linked = True

    def show_forward(serial: int, node: str) -> None:
        if forward.select_recorded(serial, node):
            selected = QCoreApplication.translate(
                "AreaLinks", "The op that made this node is selected in the Architecture area"
            )
            window.statusBar().showMessage(selected, 5000)

    backward.forward_op_selected.connect(show_forward)


def default_context(
    environment: EnvironmentReport, settings=None, workspace: Workspace | None = None
) -> AreaContext:
    """The areas' shared context: the given workspace (the Python API's, holding the caller's
    tensors), else a new one with the first-time user's example tensors."""
    from tensorviz.core.tensors.workbench_actions import populate_default_workspace

    if workspace is None:
        workspace = Workspace()
        populate_default_workspace(workspace)
    return AreaContext(workspace, environment, settings)
