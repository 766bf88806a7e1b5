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


BUILDERS: dict[str, Callable[[AreaContext], QWidget]] = {"workbench": _build_workbench}


def default_context(environment: EnvironmentReport) -> AreaContext:
    from tensorviz.core.workbench_actions import populate_default_workspace

    workspace = Workspace()
    populate_default_workspace(workspace)
    return AreaContext(workspace, environment)
