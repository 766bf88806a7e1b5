"""How a run ends by itself: at interpreter exit ("finished"), or through sys.excepthook when
the script raised ("error" with the exception's line and traceback; KeyboardInterrupt:
"interrupted"). The previous excepthook is always called after, so the traceback prints as
python prints it."""

from __future__ import annotations

import atexit
import sys
import weakref

_runs: weakref.WeakSet = weakref.WeakSet()
_installed: dict = {}


def register(run) -> None:
    _runs.add(run)
    if not _installed:
        _installed["previous"] = sys.excepthook
        sys.excepthook = _excepthook
        atexit.register(_at_exit)


def unregister(run) -> None:
    _runs.discard(run)


def _excepthook(kind, value, traceback):
    for run in list(_runs):
        try:
            run._end_with(value)
        except Exception:  # noqa: BLE001 (the user's traceback comes first, whatever happens)
            pass
    previous = _installed.get("previous") or sys.__excepthook__
    previous(kind, value, traceback)


def _at_exit() -> None:
    for run in list(_runs):
        try:
            run.close()
        except Exception:  # noqa: BLE001 (exit goes on)
            pass
