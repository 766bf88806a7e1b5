"""Shared by the script-runner tests: run a script on a workspace like the Script area does."""

import threading

from tensorviz.core.script.results import apply_script_result
from tensorviz.core.script.run import ScriptRun


def run_script(workspace, source, previous=None):
    arrays = {e.name: e.numpy_array for e in workspace if e.numpy_array is not None}
    run = ScriptRun(source, workspace.tensors(), previous, arrays)
    result = run.run()
    summary = apply_script_result(workspace, result, source)
    return run, result, summary


def start_in_thread(run: ScriptRun) -> threading.Thread:
    thread = threading.Thread(target=lambda: setattr(run, "result", run.run()), daemon=True)
    thread.start()
    return thread


def line_of(source: str, text: str) -> int:
    """1-based line of the last line containing `text` (expected values come from the text)."""
    return max(i for i, line in enumerate(source.splitlines(), 1) if text in line)
