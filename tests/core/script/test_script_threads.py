"""The threads a run leaves running are reported as the script's only when the script's own code
started them: a thread a module starts when the script imports it (as IPython's history thread
starts inside matplotlib-inline) is that module's machinery, not the script's."""

import threading

import pytest

from tensorviz.core.script.limits import run_with_limits
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.script.script_setup import ScriptFile
from tensorviz.core.script.script_threads import threads_started

# A module beside the script that starts a daemon thread as it is imported, and another one
# when one of its functions is called: neither thread is the script's.
NOISY_MODULE = """\
import threading
stop = threading.Event()
threading.Thread(target=stop.wait, name="history saver", daemon=True).start()

def make_shell():
    threading.Thread(target=stop.wait, name="shell poller", daemon=True).start()
"""

SCRIPT = """\
import threading
import noisy
noisy.make_shell()
mine = threading.Event()
threading.Thread(target=mine.wait, name="started by the script", daemon=True).start()

def watch():
    mine.wait()

threading.Thread(target=watch, name="runs the script's function", daemon=True).start()
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "noisy.py").write_text(NOISY_MODULE)
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    return script


def test_only_the_threads_the_script_started_are_its_own(project):
    run = ScriptRun(SCRIPT, {}, script_file=ScriptFile(str(project)))
    limited = run_with_limits(run)
    namespace = limited.result.namespace
    try:
        assert limited.result.status == "finished"
        assert sorted(t.name for t in limited.threads_left) == [
            "runs the script's function",
            "started by the script",
        ]
        assert sorted(t.name for t in limited.library_threads_left) == [
            "history saver",
            "shell poller",
        ]
        assert limited.non_daemon_threads_left == []  # all daemons: Python would not wait
    finally:
        namespace["mine"].set()
        namespace["noisy"].stop.set()
        for thread in [*limited.threads_left, *limited.library_threads_left]:
            thread.join(10)


def test_the_start_recording_is_removed_after_the_run():
    original = threading.Thread.start
    with threads_started("<script>"):
        assert threading.Thread.start is not original
        with threads_started("<other>"):  # nested runs share one wrapper
            pass
        assert threading.Thread.start is not original
    assert threading.Thread.start is original
