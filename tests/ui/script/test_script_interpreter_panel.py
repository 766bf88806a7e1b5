"""The Script area names the Python it runs scripts in, and explains a missing package."""

import sys

from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.script.script_panel import ScriptPanel


def test_the_panel_names_its_interpreter_and_explains_a_missing_module(qtbot, app_settings):
    panel = ScriptPanel(Workspace(), app_settings)
    qtbot.addWidget(panel)
    assert sys.executable in panel.interpreter.text()
    panel.set_text("import surely_not_installed_here\n")
    with qtbot.waitSignal(panel.run_finished, timeout=30_000):
        panel.run_script()
    assert panel.error_box.explanation.isVisibleTo(panel)
    assert "surely_not_installed_here is not installed" in panel.error_box.explanation.title.text()
    panel.shutdown()
