"""What a run cuts, and says it cut: the kept megabyte of output, folded tracebacks, Python's own
failures with their own titles, a closed sys.stdout, the recursion limit put back, and the
timeout / uninterruptible call of run_with_limits. Checked against Python itself."""

import subprocess
import sys
import threading
import traceback

import pytest

from tensorviz.core.explain.errors import UNKNOWN_TITLE
from tensorviz.core.script.limits import run_with_limits
from tensorviz.core.script.output import MAX_KEPT_CHARS, ScriptOutput
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.script.source import SCRIPT_FILENAME, compile_script, trim_traceback

RECURSION = "def f(n):\n    return f(n + 1)\n\nf(0)\n"


# --- output: the newest megabyte, and how much was dropped -----------------------------------


def test_one_huge_print_keeps_its_newest_megabyte_from_a_line_start():
    lines = [f"line {i:07d}\n" for i in range(1_000_000)]  # 13 MB in one write
    text = "".join(lines)
    output = ScriptOutput()
    output.write("stdout", text)
    chunks, dropped = output.drain(max_chars=2**62)
    kept = "".join(t for _s, t in chunks)
    assert text.endswith(kept) and kept.startswith("line ")
    assert MAX_KEPT_CHARS - len(lines[0]) < len(kept) <= MAX_KEPT_CHARS
    assert dropped == output.total_dropped == len(text) - len(kept)


def test_many_prints_count_every_dropped_character():
    output = ScriptOutput(max_chars=1000)
    written = [f"{i}\n" for i in range(5000)]
    for piece in written:
        output.write("stdout", piece)
    kept = output.text()
    assert "".join(written).endswith(kept) and len(kept) <= 1000
    assert output.total_dropped == len("".join(written)) - len(kept)


def test_a_ten_megabyte_print_through_a_run_is_cut_and_counted():
    run = ScriptRun("print('x' * 10_000_000)\nprint('end')\n", {})
    assert run.run().status == "finished"
    chunks, _ = run.output.drain(max_chars=2**62)
    kept = "".join(t for _s, t in chunks)
    printed = "x" * 10_000_000 + "\nend\n"
    assert printed.endswith(kept) and kept.endswith("end\n")
    assert run.output.total_dropped == len(printed) - len(kept) > 9_000_000


# --- tracebacks folded as Python folds them ----------------------------------------------------


def _raise_in_script(source: str):
    code, _tree, _error = compile_script(source)
    try:
        exec(code, {"__name__": "__main__"})  # noqa: S102 — the test's own script
    except RecursionError as error:
        return error
    raise AssertionError("the script did not recurse")


def _fold_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "[Previous line repeated" in line]


def test_a_default_limit_recursion_is_folded_exactly_as_python_folds_it():
    error = _raise_in_script(RECURSION)
    ours = trim_traceback(error, RECURSION).text
    python = "".join(traceback.format_exception(error))
    assert _fold_lines(ours) == _fold_lines(python) and len(_fold_lines(ours)) == 1
    assert len(ours) < 1_000  # Python's own fold; 52 KB unfolded
    assert ours.rstrip().endswith("RecursionError: maximum recursion depth exceeded")


def _tb_length(error: BaseException) -> int:
    tb, n = error.__traceback__, 0
    while tb is not None:
        n, tb = n + 1, tb.tb_next
    return n


def test_a_recursion_a_million_deep_is_folded_into_a_few_lines():
    """setrecursionlimit(10**6): 52 MB of traceback before; the fold counts every frame."""
    source = "import sys\nsys.setrecursionlimit(10**6)\n" + RECURSION
    run = ScriptRun(source, {})
    result = run.run()
    assert result.status == "failed"
    text = result.failure.traceback
    assert len(text) < 1_000 and text.count(f'File "{SCRIPT_FILENAME}"') == 4
    (fold,) = _fold_lines(text)
    repeated = int(fold.split("repeated ")[1].split()[0])
    assert repeated > 900_000
    assert result.failure.explained.kind == "recursion"
    assert sys.getrecursionlimit() < 10**6  # put back after the run, and said so
    assert "recursion limit; it was put back" in run.output.text()


def test_a_short_repeat_is_not_folded_as_in_python():
    source = "def f(n):\n    if n:\n        return f(n - 1)\n    1 / 0\n\nf(2)\n"
    code, _tree, _error = compile_script(source)
    try:
        exec(code, {})  # noqa: S102 — the test's own script
    except ZeroDivisionError as error:
        ours = trim_traceback(error, source).text
        python = "".join(traceback.format_exception(error))
    assert _fold_lines(ours) == _fold_lines(python) == []
    frame = f'File "{SCRIPT_FILENAME}", line 3, in f'
    assert ours.count(frame) == python.count(frame) == 2


# --- Python's own failures get their own titles -----------------------------------------------


@pytest.mark.parametrize(
    ("source", "kind", "line"),
    [
        (RECURSION, "recursion", 2),
        ("x = torch.ones(2)\nraise KeyboardInterrupt\n", "interrupted", 2),
        ("n = input('how many? ')\n", "no_input", 1),
    ],
)
def test_python_failures_are_not_called_torch_refusals(source, kind, line):
    result = ScriptRun(source, {}).run()
    assert result.status == "failed"
    explained = result.failure.explained
    assert explained.kind == kind and explained.title != UNKNOWN_TITLE
    assert "torch" not in explained.title and explained.explanation and explained.fix
    assert result.failure.line == line


# --- a script that closes sys.stdout -----------------------------------------------------------


def test_closing_stdout_closes_only_the_scripts_view_of_it_as_python_would():
    source = "import sys\nprint('before')\nsys.stdout.close()\nprint('after')\n"
    python = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True)
    assert "ValueError: I/O operation on closed file" in python.stderr
    run = ScriptRun(source, {})
    result = run.run()
    assert result.status == "failed" and result.failure.line == 4
    assert result.failure.traceback.rstrip().endswith("ValueError: I/O operation on closed file.")
    assert run.output.text() == "before\n"
    assert not sys.stdout.closed
    print("the test's own stdout still works")


def test_a_closed_stdout_at_the_end_of_a_run_is_open_again_for_the_next():
    first = ScriptRun("import sys\nsys.stdout.close()\n", {})
    assert first.run().status == "finished"
    second = ScriptRun("import sys\nassert not sys.stdout.closed\nprint('again')\n", {})
    assert second.run().status == "finished" and second.output.text() == "again\n"


# --- run_with_limits ---------------------------------------------------------------------------


def test_a_timeout_stops_an_endless_loop_at_its_line():
    run = ScriptRun("x = 0\nwhile True:\n    x += 1\n", {})
    limited = run_with_limits(run, timeout_s=0.3)
    assert limited.stopped_by == "timeout"
    assert limited.result.status == "stopped" and limited.result.line in (2, 3)


def test_a_call_that_cannot_be_interrupted_is_left_after_the_grace():
    """A blocking C call (here a lock) never sees the stop; the caller stops waiting."""
    gate = threading.Event()
    run = ScriptRun("gate.wait()\nx = 1\n", {}, previous_namespace={"gate": gate})
    limited = run_with_limits(run, timeout_s=0.2, grace_s=0.3)
    assert limited.stopped_by == "timeout" and limited.result is None
    runner = [t for t in threading.enumerate() if t.name == "tensorviz script"]
    assert runner and runner[0].daemon  # it cannot keep the process alive
    gate.set()  # let it end: no test leaves a thread running
    runner[0].join(10)
    assert not runner[0].is_alive()


def test_threads_the_script_leaves_are_named():
    gate = threading.Event()
    source = (
        "import threading\n"
        "threading.Thread(target=gate.wait, name='left behind', daemon=False).start()\n"
    )
    run = ScriptRun(source, {}, previous_namespace={"gate": gate})
    limited = run_with_limits(run)
    try:
        assert limited.result.status == "finished" and limited.stopped_by == ""
        assert [t.name for t in limited.threads_left] == ["left behind"]
        assert [t.name for t in limited.non_daemon_threads_left] == ["left behind"]
    finally:
        gate.set()
        for thread in limited.threads_left:
            thread.join(10)
