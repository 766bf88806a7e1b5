"""Builds the real panel of each area once torch has loaded, all sharing one workspace."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import QWidget

from tensorviz.core.environment import EnvironmentReport
from tensorviz.core.workspace import Workspace


@dataclass
class AreaContext:
    workspace: Workspace
    environment: EnvironmentReport


def _build_workbench(context: AreaContext) -> QWidget:
    from tensorviz.ui.workbench.workbench_panel import WorkbenchPanel

    return WorkbenchPanel(context.workspace, context.environment.devices)


def _build_layout(context: AreaContext) -> QWidget:
    from tensorviz.ui.layout.layout_panel import LayoutPanel

    return LayoutPanel(context.workspace)


def _build_training(context: AreaContext) -> QWidget:
    from tensorviz.ui.training.training_panel import TrainingPanel

    return TrainingPanel(context.environment.devices)


def _build_files(context: AreaContext) -> QWidget:
    from tensorviz.ui.files.files_panel import FilesPanel

    return FilesPanel(context.workspace)


def _build_graph(context: AreaContext) -> QWidget:
    from tensorviz.ui.graph.graph_panel import GraphPanel

    return GraphPanel(context.workspace)


# In navigation order; each panel module is imported only when torch has loaded.
BUILDERS: dict[str, Callable[[AreaContext], QWidget]] = {
    "workbench": _build_workbench,
    "layout": _build_layout,
    "graph": _build_graph,
    "training": _build_training,
    "files": _build_files,
}


def link_areas(panels: dict[str, QWidget], workspace: Workspace, show_area) -> None:
    """The tensor selected in the Workbench is the one the Memory layout shows; Training's loss
    graph opens in the Autograd graph area."""
    workbench, layout = panels.get("workbench"), panels.get("layout")
    if hasattr(workbench, "selection_changed") and hasattr(layout, "show_tensor"):
        workbench.selection_changed.connect(lambda name: name and layout.show_tensor(name))
    files = panels.get("files")  # a tensor sent from a file is shown in the Memory layout
    if hasattr(files, "tensors_sent") and hasattr(layout, "show_tensor"):
        files.tensors_sent.connect(lambda names: layout.show_tensor(names[0]))
    training, graph = panels.get("training"), panels.get("graph")
    if hasattr(training, "loss_graph_built") and hasattr(graph, "show_tensor"):

        def open_loss_graph(tensors: dict) -> None:
            from tensorviz.core.training import add_loss_graph_to_workspace

            graph.show_tensor(add_loss_graph_to_workspace(workspace, tensors))
            show_area("graph")

        training.loss_graph_built.connect(open_loss_graph)


def default_context(environment: EnvironmentReport) -> AreaContext:
    from tensorviz.core.workbench_actions import populate_default_workspace

    workspace = Workspace()
    populate_default_workspace(workspace)
    return AreaContext(workspace, environment)
