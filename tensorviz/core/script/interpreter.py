"""The Python a script runs in — tensorviz's own — named, and what to do when a script imports
a package that lives in another environment (ModuleNotFoundError)."""

from __future__ import annotations

import platform
import sys

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.translation import _


def interpreter_text() -> str:
    """ "Python 3.11.7 · /home/me/tensorviz/.venv/bin/python": where the Script area's code runs."""
    return f"Python {platform.python_version()} · {sys.executable}"


def missing_module_explained(error: ModuleNotFoundError) -> ExplainedError:
    """Python's own words, not torch's: the message goes into the explanation."""
    # a noun where the name goes (an error raised without one): no word order to break
    module = (error.name or "").split(".")[0] or _("the module")
    return ExplainedError(
        "missing_module",
        _("{module} is not installed in the Python tensorviz runs").format(module=module),
        "",
        _(
            "Python says “{message}”: the Script area runs your code in tensorviz's own Python "
            "({python}), not in the environment where you installed {module}."
        ).format(message=error, python=sys.executable, module=module),
        _(
            "In the environment that has {module}, run `python -m pip install "
            "path/to/tensorviz`, then start tensorviz there with `python -m tensorviz` — or call "
            "tensorviz.show(...) from your own script."
        ).format(module=module),
    )
