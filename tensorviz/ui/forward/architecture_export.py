"""Export the Architecture view as PNG or SVG (the scene, painted, frames and all) or DOT
(core's text with one cluster per open frame), written atomically."""

from __future__ import annotations

import os
from pathlib import Path

from tensorviz.core.forward.architecture import Architecture
from tensorviz.core.forward.architecture_dot import architecture_dot
from tensorviz.ui.autograd.graph_export import export_view


def export_architecture(view, architecture: Architecture, path: str | os.PathLike) -> Path:
    picture = view.architecture
    return export_view(view, picture.graph, path, lambda _graph: architecture_dot(picture))


def write_architecture_picture(architecture: Architecture, path: Path) -> None:
    """Lay out and paint an architecture offscreen with the app's own scene (for the CLI)."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from tensorviz.ui.forward.architecture_view import ArchitectureView

    app = QApplication.instance() or QApplication([])  # noqa: F841  (kept alive while painting)
    view = ArchitectureView()
    view.show_architecture(architecture.arrange())
    export_architecture(view, architecture, path)
    view.deleteLater()
