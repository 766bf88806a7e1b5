"""A script that imports a package tensorviz's Python lacks is told where it ran and what to do."""

import sys

from script_helpers import run_script

from tensorviz.core.script.interpreter import interpreter_text
from tensorviz.core.tensors.workspace import Workspace


def test_the_interpreter_is_named():
    assert sys.executable in interpreter_text()
    assert interpreter_text().startswith(f"Python {sys.version.split()[0]}")


def test_a_missing_package_says_how_to_run_tensorviz_from_its_environment():
    source = "import torch\nimport tensorviz_no_such_package.models\n"
    _, result, _ = run_script(Workspace(), source)
    assert result.status == "failed" and result.failure.line == 2
    explained = result.failure.explained
    assert explained.kind == "missing_module" and result.failure.torch_error  # shown explained
    assert explained.torch_message == ""  # Python's words, quoted in the explanation
    assert "No module named 'tensorviz_no_such_package'" in explained.explanation
    assert "tensorviz_no_such_package is not installed" in explained.title
    assert sys.executable in explained.explanation
    assert (
        "pip install path/to/tensorviz" in explained.fix and "python -m tensorviz" in explained.fix
    )
