"""PNG and SVG pictures need Qt's painting, which lives in `tensorviz.ui`; the CLI never imports
the ui. The entry point (`tensorviz.app`, which composes the two) registers a painter for each
kind of picture, and a subcommand asks for it by kind.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tensorviz.cli.arguments import CliInputError
from tensorviz.core.translation import _

Painter = Callable[[object, Path], None]
_PAINTERS: dict[str, Painter] = {}


def register_painter(kind: str, painter: Painter) -> None:
    _PAINTERS[kind] = painter


def paint(kind: str, subject, path: Path) -> None:
    """Paint `subject` into `path` (.png or .svg) with the painter registered for `kind`."""
    painter = _PAINTERS.get(kind)
    if painter is None:
        raise CliInputError(
            _("cannot paint {name}: no painter for {kind} pictures here").format(
                name=path.name, kind=kind
            )
        )
    painter(subject, path)
