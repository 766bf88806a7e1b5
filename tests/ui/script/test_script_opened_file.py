"""A script opened from disk in the Script area runs as `python FILE` runs it: a module beside it
imports, __file__ and sys.argv are the file's, tracebacks name it; the app's sys.path and
sys.argv are put back once it ends. Text without a file (an example) runs as it always has."""

import subprocess
import sys

from PySide6.QtCore import QSettings

from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.script.script_panel import ScriptPanel
from tensorviz.ui.window.app_settings import AppSettings

SCRIPT = (
    "import sys, torch\n"
    "from helpers import scale\n"
    "seen = [__file__, sys.argv, sys.path[0]]\n"
    "y = scale(torch.ones(2))\n"
    "print(seen)\n"
    "raise ValueError('at the end')\n"
)


def run(qtbot, panel) -> str:
    with qtbot.waitSignal(panel.run_finished, timeout=30_000) as finished:
        panel.run_script()
    return finished.args[0]


def test_an_opened_file_runs_as_python_runs_it(qtbot, tmp_path, app_settings):
    (tmp_path / "helpers.py").write_text("def scale(t):\n    return t * 2\n")
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    python = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    argv, path = list(sys.argv), list(sys.path)
    workspace = Workspace()
    panel = ScriptPanel(workspace, app_settings)
    qtbot.addWidget(panel)
    assert panel.open_script(str(script))
    assert panel.text() == SCRIPT and str(script) in panel.interpreter.text()
    assert run(qtbot, panel) == "failed"
    expected = str([str(script), [str(script)], str(tmp_path)])
    assert expected in panel.output.text() and expected in python.stdout
    assert f'File "{script}", line 6, in <module>' in panel.output.text()
    assert f'File "{script}", line 6, in <module>' in python.stderr
    assert panel.error_box.line == 6
    assert workspace.tensor("y").tolist() == [2.0, 2.0]  # made by the module beside the script
    assert sys.argv == argv and sys.path == path and "helpers" not in sys.modules
    # the file is remembered with its text: a restart runs it as the same file again
    reread = QSettings(app_settings.qsettings.fileName(), QSettings.Format.IniFormat)
    again = ScriptPanel(Workspace(), AppSettings(reread))
    qtbot.addWidget(again)
    assert again.script_path == str(script)
    panel.load_example("06_autograd")  # an example has no file: it runs as pasted text
    assert panel.script_path is None and str(script) not in panel.interpreter.text()
    panel.set_text("print(__file__)\n")
    assert run(qtbot, panel) == "failed"
    assert 'File "<script>", line 1' in panel.output.text()
    panel.shutdown()
    again.shutdown()


def test_a_file_that_cannot_be_read_is_said_on_the_status_line(qtbot, tmp_path, app_settings):
    panel = ScriptPanel(Workspace(), app_settings)
    qtbot.addWidget(panel)
    before = panel.text()
    assert not panel.open_script(str(tmp_path / "missing.py"))
    assert "missing.py cannot be opened" in panel.status.text()
    assert panel.text() == before and panel.script_path is None
    panel.shutdown()
