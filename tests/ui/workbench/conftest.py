"""A shown Workbench panel on a given workspace, shut down after the test."""

import pytest

from tensorviz.core.tensors.workbench_actions import populate_default_workspace
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.workbench.workbench_panel import WorkbenchPanel


@pytest.fixture
def open_panel(qtbot):
    opened = []

    def open_panel(workspace: Workspace | None = None) -> WorkbenchPanel:
        if workspace is None:
            workspace = Workspace()
            populate_default_workspace(workspace)
        widget = WorkbenchPanel(workspace, ["cpu"])
        qtbot.addWidget(widget)
        widget.resize(1200, 800)
        widget.show()
        opened.append(widget)
        return widget

    yield open_panel
    for widget in opened:
        widget.shutdown()
