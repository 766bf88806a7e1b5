"""`tensorviz run` has limits and says what it cut: --timeout, Ctrl+C, the dropped-output note,
threads left running, Python's own failures titled as such, a script that closes sys.stdout.
What needs the process to exit (threads, signals) runs the real console script."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tensorviz.app import main
from tensorviz.core.explain.errors import UNKNOWN_TITLE
from tensorviz.core.script.output import MAX_KEPT_CHARS

ROOT = Path(__file__).resolve().parents[2]


def script(tmp_path, source: str) -> str:
    path = tmp_path / "script.py"
    path.write_text(source)
    return str(path)


def tensorviz_command() -> list[str]:
    console = shutil.which("tensorviz", path=str(Path(sys.executable).parent))
    return [console] if console else [sys.executable, "-m", "tensorviz"]


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [*tensorviz_command(), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


# --- --timeout ---------------------------------------------------------------------------------


def test_timeout_stops_an_endless_loop_with_exit_124_and_says_where(tmp_path, capsys):
    path = script(tmp_path, "x = torch.ones(2)\nwhile True:\n    x = x + 0\n")
    assert main(["run", "--timeout", "0.5", path]) == 124
    captured = capsys.readouterr()
    (line,) = captured.err.strip().splitlines()
    assert line.startswith("tensorviz run: stopped after the 0.5 s timeout at line ")
    assert line.split(" at line ")[1][0] in "23"  # the loop, or its body
    assert "discarded" in line and "captured" not in captured.out


def test_timeout_in_json(tmp_path, capsys):
    path = script(tmp_path, "while True:\n    pass\n")
    assert main(["run", "--json", "--timeout", "0.3", path]) == 124
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "timed_out" and data["timeout_s"] == 0.3
    assert "0.3 s timeout" in data["stopped"] and data["tensors"] == []


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf", "nan"])
def test_a_bad_timeout_is_one_line_and_exit_2(tmp_path, capsys, value):
    assert main(["run", "--timeout", value, script(tmp_path, "pass\n")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--timeout" in err


def test_a_script_that_ends_in_time_is_not_touched_by_its_timeout(tmp_path, capsys):
    assert main(["run", "--json", "--timeout", "60", script(tmp_path, "x = torch.ones(3)\n")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "finished" and data["stopped"] is None
    assert [row["name"] for row in data["tensors"]] == ["x"]


# --- output beyond the kept megabyte -----------------------------------------------------------

BIG_PRINT = "for i in range(150_000):\n    print(f'line {i:06d}')\n"
PRINTED = "".join(f"line {i:06d}\n" for i in range(150_000))  # what Python prints


def test_dropped_output_is_counted_in_the_text(tmp_path, capsys):
    assert main(["run", script(tmp_path, BIG_PRINT)]) == 0
    captured = capsys.readouterr()
    kept = captured.out.split("note: ")[0]
    dropped = len(PRINTED) - len(kept)
    assert PRINTED.endswith(kept) and dropped > len(PRINTED) - MAX_KEPT_CHARS - 20
    assert captured.err.startswith(f"… {dropped:,} characters of earlier output dropped …")
    assert f"note: {dropped:,} characters of output were dropped" in captured.out


def test_dropped_output_is_counted_in_json(tmp_path, capsys):
    assert main(["run", "--json", script(tmp_path, BIG_PRINT)]) == 0
    data = json.loads(capsys.readouterr().out)
    kept = "".join(chunk["text"] for chunk in data["output"])
    assert PRINTED.endswith(kept)
    assert data["output_dropped_chars"] == len(PRINTED) - len(kept) > 0
    assert any("characters of output were dropped" in note for note in data["notes"])


def test_nothing_dropped_says_zero(tmp_path, capsys):
    assert main(["run", "--json", script(tmp_path, "print('hi')\n")]) == 0
    assert json.loads(capsys.readouterr().out)["output_dropped_chars"] == 0


# --- Python's own failures, titled as such -----------------------------------------------------


@pytest.mark.parametrize(
    ("source", "kind", "exception"),
    [
        ("def f():\n    return f()\nf()\n", "recursion", "RecursionError"),
        ("raise KeyboardInterrupt\n", "interrupted", "KeyboardInterrupt"),
        ("n = input()\n", "no_input", "ScriptInputError"),
    ],
)
def test_python_failures_have_their_own_titles_in_json(tmp_path, capsys, source, kind, exception):
    assert main(["run", "--json", script(tmp_path, source)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["kind"] == kind and error["title"] != UNKNOWN_TITLE
    assert error["traceback"].strip().splitlines()[-1].split(":")[0].endswith(exception)
    assert len(error["traceback"]) < 2_000  # the recursion is folded


def test_a_script_closing_stdout_does_not_break_the_cli(tmp_path, capsys):
    source = "import sys\nx = torch.ones(2)\nprint('bye')\nsys.stdout.close()\n"
    assert main(["run", "--json", script(tmp_path, source)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["output"] == [{"stream": "stdout", "text": "bye\n"}] and data["tensors"]


# --- what needs a real process -------------------------------------------------------------------

posix_only = pytest.mark.skipif(os.name != "posix", reason="signals as POSIX sends them")


def test_a_thread_left_running_is_named_and_not_waited_for(tmp_path):
    source = (
        "import threading, time\n"
        "threading.Thread(target=time.sleep, args=(600,), name='sleeper', daemon=False).start()\n"
        "x = torch.ones(2)\n"
    )
    process = start("run", script(tmp_path, source))
    out, err = process.communicate(timeout=120)  # not 600 s: the thread is not waited for
    assert process.returncode == 0, err
    assert "note: the script left 1 thread running (sleeper); tensorviz exits without" in out
    assert "x " in out  # the results were printed first


@posix_only
def test_ctrl_c_stops_the_run_with_exit_130(tmp_path):
    marker = tmp_path / "started"
    source = f"open({str(marker)!r}, 'w').close()\nwhile True:\n    pass\n"
    process = start("run", script(tmp_path, source))
    deadline = time.monotonic() + 120
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.strip().splitlines()[-1].startswith("tensorviz run: interrupted (Ctrl+C) at line")


def test_a_call_that_never_returns_is_left_and_the_process_exits(tmp_path):
    source = "import threading\nthreading.Event().wait()\n"  # a lock: no stop reaches it
    process = start("run", "--timeout", "1", script(tmp_path, source))
    out, err = process.communicate(timeout=120)
    assert process.returncode == 124
    (line,) = err.strip().splitlines()
    assert "1 s timeout at line 2" in line and "cannot be interrupted" in line
