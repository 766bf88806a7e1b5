"""The Python a script runs in — tensorviz's own — named, and what to do when a script imports
a package that lives in another environment (ModuleNotFoundError)."""

from __future__ import annotations

import platform
import sys

from tensorviz.core.explain.errors import ExplainedError


def interpreter_text() -> str:
    """ "Python 3.11.7 · /home/me/tensorviz/.venv/bin/python": where the Script area's code runs."""
    return f"Python {platform.python_version()} · {sys.executable}"


def missing_module_explained(error: ModuleNotFoundError) -> ExplainedError:
    """Python's own words, not torch's: the message goes into the explanation."""
    module = (error.name or "the module").split(".")[0]
    return ExplainedError(
        "missing_module",
        f"{module} is not installed in the Python tensorviz runs",
        "",
        f"Python says “{error}”: the Script area runs your code in tensorviz's own Python "
        f"({sys.executable}), not in the environment where you installed {module}.",
        f"In the environment that has {module}, run `python -m pip install path/to/tensorviz`, "
        "then start tensorviz there with `python -m tensorviz` — or call tensorviz.show(...) "
        "from your own script.",
    )
