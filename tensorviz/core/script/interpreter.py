"""The Python a script runs in, named, and a ModuleNotFoundError explained for what it is.

Most often the package is simply not installed in the Python that runs the script — the same
one `python SCRIPT.py` would use — and the fix is `that-python -m pip install pandas`. Only when
the `python` of the user's PATH is another interpreter (another environment) that has the package
is the problem that tensorviz runs in its own Python; that is asked of that interpreter itself,
in a subprocess, once the error has happened (tens of milliseconds, never before a run).
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.translation import _

# import name → the name pip installs it by, where they differ (the ones learners meet)
PIP_NAMES = {
    "sklearn": "scikit-learn",
    "cv2": "opencv-python",
    "PIL": "Pillow",
    "yaml": "PyYAML",
    "skimage": "scikit-image",
    "bs4": "beautifulsoup4",
}
_PROBE = (
    "import importlib.util, sys\n"
    "print(sys.prefix)\n"
    "print(importlib.util.find_spec(sys.argv[1]) is not None)\n"
)
PROBE_TIMEOUT_S = 10


def interpreter_text() -> str:
    """ "Python 3.11.7 · /home/me/tensorviz/.venv/bin/python": where the Script area's code runs."""
    return f"Python {platform.python_version()} · {sys.executable}"


def path_python_with(module: str, environ=None) -> str | None:
    """The `python` (else `python3`) of PATH when it is another interpreter than this one (another
    sys.prefix) and `module` can be imported there; else None."""
    environ = os.environ if environ is None else environ
    for name in ("python", "python3"):
        found = shutil.which(name, path=environ.get("PATH"))
        if found:
            break
    else:
        return None
    try:
        answer = subprocess.run(
            [found, "-c", _PROBE, module], capture_output=True, text=True,
            timeout=PROBE_TIMEOUT_S, env=dict(environ), check=True,
        )  # fmt: skip
        prefix, has_it = answer.stdout.splitlines()[-2:]
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if os.path.realpath(prefix) == os.path.realpath(sys.prefix) or has_it != "True":
        return None
    return found


def missing_module_explained(
    error: ModuleNotFoundError, folder: str | None = None
) -> ExplainedError:
    """Python's own words, not torch's: the message goes into the explanation. `folder`: the
    script's folder (sys.path[0] while it ran), when it has a file."""
    # a noun where the name goes (an error raised without one): no word order to break
    module = (error.name or "").split(".")[0] or _("the module")
    package = PIP_NAMES.get(module, module)
    install = f"`{sys.executable} -m pip install {package}`"
    elsewhere = path_python_with(module) if error.name else None
    if elsewhere is not None:
        return ExplainedError(
            "missing_module",
            _("{module} is installed in another Python, not in the one tensorviz runs").format(
                module=module
            ),
            "",
            _(
                "Python says “{message}”: {module} is installed in {other} (the python of your "
                "PATH), but tensorviz runs your code in its own Python ({python})."
            ).format(message=error, module=module, other=elsewhere, python=sys.executable),
            _(
                "Install tensorviz into that environment (`{other} -m pip install "
                "path/to/tensorviz`) and start it there with `{other} -m tensorviz`, or install "
                "{package} into tensorviz's Python: {install}"
            ).format(other=elsewhere, package=package, install=install),
        )
    if folder:
        where = _(
            "Python says “{message}”: there is no {module} beside the script ({folder}), and "
            "none is installed in the Python that runs it ({python})."
        ).format(message=error, module=module, folder=folder, python=sys.executable)
    else:
        where = _(
            "Python says “{message}”: {module} is not installed in the Python that runs the "
            "script ({python})."
        ).format(message=error, module=module, python=sys.executable)
    return ExplainedError(
        "missing_module",
        _("{module} is not installed in this Python").format(module=module),
        "",
        where,
        _("install {package} into this Python: {install}").format(package=package, install=install),
    )
