"""The Files panel on an empty workspace, shown, and shut down (its workers joined) afterwards."""

import pytest

from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.files.files_panel import FilesPanel


@pytest.fixture
def panel(qtbot):
    files_panel = FilesPanel(Workspace())
    qtbot.addWidget(files_panel)
    files_panel.resize(800, 600)
    files_panel.show()
    yield files_panel
    files_panel.shutdown()
