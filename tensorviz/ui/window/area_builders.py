"""Builds the real panel of each area once torch has loaded, all sharing one workspace."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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


def _build_files(context: AreaContext) -> QWidget:
    from tensorviz.ui.files.files_panel import FilesPanel

    return FilesPanel(context.workspace)


def _build_graph(context: AreaContext) -> QWidget:
    from tensorviz.ui.autograd.graph_panel import GraphPanel

    return GraphPanel(context.workspace)


# In navigation order; each panel module is imported only when torch has loaded.
BUILDERS: dict[str, Callable[[AreaContext], QWidget]] = {
    "workbench": _build_workbench,
    "script": _build_script,
    "layout": _build_layout,
    "graph": _build_graph,
    "training": _build_training,
    "files": _build_files,
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
    elif key == "files":  # a tensor sent from a file is shown in the Memory layout
        panel.tensors_sent.connect(lambda names: show_in_layout(names[0]))
    elif key == "layout" and window.tensor_in_focus in workspace:  # the latest one picked
        panel.show_tensor(window.tensor_in_focus)
    elif key == "script":  # a captured tensor opens in the area the user asked for
        link_script_panel(panel, window, show_in_layout)
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
        # The playground's model for an architecture view: connect panel.architecture_requested
        # (nn.Sequential, example input) here and call panel.set_architecture_available(True).


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

    panel.graph_requested.connect(open_graph)
    panel.workbench_requested.connect(open_workbench)
    panel.layout_requested.connect(open_layout)


def default_context(environment: EnvironmentReport, settings=None) -> AreaContext:
    from tensorviz.core.tensors.workbench_actions import populate_default_workspace

    workspace = Workspace()
    populate_default_workspace(workspace)
    return AreaContext(workspace, environment, settings)
