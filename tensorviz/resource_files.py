"""Where the shipped resources (icons, themes, example scripts) live.

In a built wheel they sit inside the package (`tensorviz/resources`, see pyproject's
force-include); in a source checkout or editable install they are the repository's top-level
`resources/`. The path is computed once, relative to the package, never the current directory.
"""

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def resources_dir() -> Path:
    for candidate in (_PACKAGE_DIR / "resources", _PACKAGE_DIR.parent / "resources"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"tensorviz resources not found next to {_PACKAGE_DIR}")


def resource_path(*parts: str) -> Path:
    """Path of a shipped resource, e.g. resource_path("icons", "tensorviz.svg")."""
    return resources_dir().joinpath(*parts)
