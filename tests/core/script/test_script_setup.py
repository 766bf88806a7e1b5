"""A script with a file is set up as `python SCRIPT.py ARG ...` sets it up — checked against a
real `python SCRIPT.py` run beside us on the same project — and everything is put back after."""

import json
import subprocess
import sys
import textwrap

import pytest

from tensorviz.core.script.run import ScriptRun
from tensorviz.core.script.script_setup import ScriptFile

PROBE = textwrap.dedent(
    """\
    import json, pickle, sys
    from dataclasses import dataclass
    from d2l import torch as d2l
    import utils

    @dataclass
    class Point:
        x: int

    facts = {
        "file": __file__,
        "argv": sys.argv,
        "path0": sys.path[0],
        "main_is_this_module": sys.modules["__main__"].__dict__ is globals(),
        "pickled_class": pickle.loads(pickle.dumps(Point(3))).x,
        "helpers": [d2l.VALUE, utils.VALUE],
    }
    print(json.dumps(facts))
    def fail():
        raise ValueError("the end")
    fail()
    """
)


@pytest.fixture
def project(tmp_path):
    """The book's layout: a `d2l/` package and a `utils.py` beside the script."""
    folder = tmp_path / "chapter"
    (folder / "d2l").mkdir(parents=True)
    (folder / "d2l" / "__init__.py").write_text("")
    (folder / "d2l" / "torch.py").write_text("VALUE = 'd2l beside the script'\n")
    (folder / "utils.py").write_text("VALUE = 'utils beside the script'\n")
    (folder / "train.py").write_text(PROBE)
    return tmp_path


def _file_lines(traceback: str) -> list[str]:
    return [line.strip() for line in traceback.splitlines() if line.strip().startswith("File ")]


def test_a_script_runs_as_python_runs_it(project, monkeypatch):
    given = "chapter/train.py"  # relative, as typed in a terminal in the project folder
    python = subprocess.run(
        [sys.executable, given, "a", "--b"], cwd=project, capture_output=True, text=True
    )
    assert python.returncode == 1
    monkeypatch.chdir(project)
    argv, path, main = list(sys.argv), list(sys.path), sys.modules["__main__"]
    run = ScriptRun(PROBE, {}, script_file=ScriptFile(given, ("a", "--b")))
    result = run.run()
    ours = json.loads(run.output.text().splitlines()[0])
    assert ours == json.loads(python.stdout)
    assert ours["path0"] == str(project / "chapter") and ours["argv"] == [given, "a", "--b"]
    assert result.status == "failed"
    assert _file_lines(result.failure.traceback) == _file_lines(python.stderr)
    call_line = PROBE.splitlines().index("fail()") + 1
    where = f'File "{project / "chapter" / "train.py"}", line {call_line}, in <module>'
    assert where in result.failure.traceback
    # put back: the app's process is the app's again
    assert sys.argv == argv and sys.path == path and sys.modules["__main__"] is main
    assert (
        "utils" not in sys.modules and "d2l" not in sys.modules and "d2l.torch" not in sys.modules
    )


def test_the_next_run_imports_the_helper_again_as_a_new_python_would(project, monkeypatch):
    script = project / "chapter" / "show.py"
    script.write_text("import utils\nseen = utils.VALUE\n")
    first = ScriptRun(script.read_text(), {}, script_file=ScriptFile(str(script))).run()
    (project / "chapter" / "utils.py").write_text("VALUE = 'edited'\n")
    second = ScriptRun(script.read_text(), {}, script_file=ScriptFile(str(script))).run()
    assert first.namespace["seen"] == "utils beside the script"
    assert second.namespace["seen"] == "edited"
    assert "utils" not in sys.modules


def test_a_symlinked_script_puts_its_real_folder_first(project):
    source = "import json, sys\nfacts = [__file__, sys.path[0]]\nprint(json.dumps(facts))\n"
    real = project / "chapter" / "real.py"
    real.write_text(source)
    link = project / "link.py"
    link.symlink_to(real)
    python = subprocess.run([sys.executable, str(link)], capture_output=True, text=True, check=True)
    result = ScriptRun(source, {}, script_file=ScriptFile(str(link))).run()
    assert result.namespace["facts"] == json.loads(python.stdout)
    assert result.namespace["facts"] == [str(link), str(project / "chapter")]


def test_pasted_text_without_a_file_runs_as_before():
    argv, path = list(sys.argv), list(sys.path)
    source = "import sys\nseen = [list(sys.argv), sys.path[0]]\nprint(__file__)\n"
    result = ScriptRun(source, {}).run()
    assert result.status == "failed" and "NameError" in result.failure.traceback
    assert 'File "<script>", line 3' in result.failure.traceback
    assert sys.argv == argv and sys.path == path
