"""A script that imports a package that is not there is told what is really wrong: most often the
package is not installed in the Python that runs it (the same one `python SCRIPT.py` uses), and
only when the `python` of PATH is another interpreter that has it, that tensorviz runs its own."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from script_helpers import run_script

from tensorviz.core.script.interpreter import interpreter_text, path_python_with
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.script.script_setup import ScriptFile
from tensorviz.core.tensors.workspace import Workspace

MISSING = "tensorviz_no_such_package"


def test_the_interpreter_is_named():
    assert sys.executable in interpreter_text()
    assert interpreter_text().startswith(f"Python {sys.version.split()[0]}")


@pytest.fixture
def path_is_our_python(monkeypatch):
    """The shell's `python` is the one running tensorviz (an activated environment)."""
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")


def test_a_package_missing_from_the_same_python_says_install_it_here(path_is_our_python):
    source = f"import torch\nimport {MISSING}.models\n"
    _, result, _ = run_script(Workspace(), source)
    assert result.status == "failed" and result.failure.line == 2
    explained = result.failure.explained
    assert explained.kind == "missing_module" and result.failure.torch_error  # shown explained
    assert explained.torch_message == ""  # Python's words, quoted in the explanation
    assert f"No module named '{MISSING}'" in explained.explanation
    assert explained.title == f"{MISSING} is not installed in this Python"
    assert sys.executable in explained.explanation
    assert f"`{sys.executable} -m pip install {MISSING}`" in explained.fix
    assert "own Python" not in explained.explanation + explained.fix
    # what the shell's python says is the same: it is this interpreter, and it has no such module
    said = subprocess.run(
        ["python", "-c", f"import sys; print(sys.prefix); import {MISSING}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert said.stdout.strip() == sys.prefix and "ModuleNotFoundError" in said.stderr


def test_a_script_with_a_file_names_the_folder_python_looked_in(tmp_path, path_is_our_python):
    script = tmp_path / "train.py"
    script.write_text("from d2l_missing_here import torch as d2l\n")
    run = ScriptRun(script.read_text(), {}, script_file=ScriptFile(str(script)))
    explained = run.run().failure.explained
    assert f"beside the script ({tmp_path})" in explained.explanation
    assert "pip install d2l_missing_here" in explained.fix


def test_pip_names_differ_from_import_names_where_they_do(path_is_our_python):
    _, result, _ = run_script(Workspace(), "import sklearn\n")
    if result.status == "finished":
        pytest.skip("scikit-learn is installed here")
    assert "-m pip install scikit-learn`" in result.failure.explained.fix


def _other_environment(tmp_path: Path, module: str) -> Path:
    """A real second environment (a venv of its own) where `module` is installed."""
    folder = tmp_path / "other-env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    purelib = subprocess.run(
        [str(folder / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()"
         "['purelib'])"], capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    (Path(purelib) / f"{module}.py").write_text("VALUE = 1\n")
    return folder / "bin" / "python"


def test_a_package_of_another_environment_says_tensorviz_runs_its_own_python(tmp_path, monkeypatch):
    other = _other_environment(tmp_path, "only_in_the_other_env")
    monkeypatch.setenv("PATH", f"{other.parent}{os.pathsep}{os.environ['PATH']}")
    assert path_python_with("only_in_the_other_env") == str(other)
    assert path_python_with(MISSING) is None  # that one has it nowhere
    _, result, _ = run_script(Workspace(), "import only_in_the_other_env\n")
    explained = result.failure.explained
    assert "installed in another Python" in explained.title
    assert str(other) in explained.explanation and sys.executable in explained.explanation
    assert f"`{other} -m pip install path/to/tensorviz`" in explained.fix
    assert f"`{sys.executable} -m pip install only_in_the_other_env`" in explained.fix
    # both facts, asked of the interpreters themselves
    probe = "import only_in_the_other_env"
    assert subprocess.run([str(other), "-c", probe], check=False).returncode == 0
    assert subprocess.run([sys.executable, "-c", probe], check=False).returncode == 1
