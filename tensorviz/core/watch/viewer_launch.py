"""`--view` / `view=True`: the viewer in a process of its own (a slow or closed viewer never
slows training), when there is a display to show it on; else one line saying where the run is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tensorviz.core.translation import _


def display_present() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_viewer(folder: Path) -> subprocess.Popen | None:
    if not display_present():
        print(_("tensorviz: no display here to show the run on; open {folder} with `tensorviz "
                "{folder}` where there is one (or `tensorviz report {folder}`).").format(
                    folder=folder), file=sys.stderr)  # fmt: skip
        return None
    return subprocess.Popen(  # noqa: S603 (our own interpreter and package)
        [sys.executable, "-m", "tensorviz", str(folder)],
        stdin=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl+C in the terminal stops the script, not the viewer
    )
