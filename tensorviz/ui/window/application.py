"""The QApplication both entry points share (the `tensorviz` command and the Python API), and the
check that comes before it: without a display Qt's xcb plugin aborts the whole process
(SIGABRT), so the display is looked for first and its absence said in one line — before Qt, so
in core's gettext words (tools/translations.py extracts this file for core's catalogue).
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Mapping

from tensorviz.core.translation import _

X11_SOCKETS = "/tmp/.X11-unix/X{number}"
X11_TCP_BASE = 6000


def display_problem(environ: Mapping[str, str] | None = None, platform: str | None = None):
    """Why Qt could not open a window here (e.g. "DISPLAY is not set"), or None when it can.

    Only Linux's X11 needs the check: an explicit QT_QPA_PLATFORM other than xcb (offscreen,
    wayland, vnc) and a Wayland session are Qt's own business, macOS and Windows always have one."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return None
    qpa = environ.get("QT_QPA_PLATFORM", "")
    if qpa and not qpa.startswith("xcb"):
        return None
    if environ.get("WAYLAND_DISPLAY") and not qpa:
        return None
    display = environ.get("DISPLAY", "")
    if not display:
        return _("DISPLAY is not set")
    if not x_display_reachable(display):
        return _("the X display {display!r} does not answer").format(display=display)
    return None


def x_display_reachable(display: str, timeout_s: float = 1.0) -> bool:
    """Connect to the X server named by DISPLAY ("[host]:N[.screen]"); a form this does not know
    is given the benefit of the doubt (Qt reports it then)."""
    host, _colon, rest = display.rpartition(":")
    number = rest.split(".")[0]
    if not number.isdigit():
        return True
    if host in ("", "unix"):
        path = X11_SOCKETS.format(number=number)
        return _connects(socket.AF_UNIX, "\0" + path, timeout_s) or _connects(
            socket.AF_UNIX, path, timeout_s
        )
    return _connects(socket.AF_INET, (host, X11_TCP_BASE + int(number)), timeout_s)


def _connects(family: int, address, timeout_s: float) -> bool:
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.settimeout(timeout_s)
            probe.connect(address)
        return True
    except OSError:
        return False


def create_application():
    """The process's QApplication (made once), named as tensorviz. Its look (theme, zoom) is set
    by the main window from the settings (ui/window/appearance.py)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv and sys.argv[0] else "tensorviz"])
    app.setOrganizationName("tensorviz")
    app.setApplicationName("tensorviz")
    app.setApplicationDisplayName("tensorviz")
    return app
