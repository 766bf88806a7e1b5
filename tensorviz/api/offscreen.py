"""Qt's offscreen platform (QT_QPA_PLATFORM=offscreen, or minimal) draws windows nobody can see
or close: a blocking tensorviz.show() there would wait forever. The API treats it as no display
(one line, and the program goes on), except for a window that closes itself once ready (smoke
tests: TENSORVIZ_QUIT_AFTER_READY) and for tests that look at the window offscreen."""

from __future__ import annotations

import os

from tensorviz.core.translation import _

QUIT_AFTER_READY = "TENSORVIZ_QUIT_AFTER_READY"  # smoke tests: close once the window is ready
OFFSCREEN_WINDOWS_WANTED = False  # set only by tests that look at the window offscreen


def offscreen_problem() -> str | None:
    """Why a window would be one nobody sees (for the no-display line); None when it is not."""
    platform = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0]
    if platform not in ("offscreen", "minimal") or OFFSCREEN_WINDOWS_WANTED:
        return None
    if os.environ.get(QUIT_AFTER_READY):
        return None
    return _("QT_QPA_PLATFORM={platform} draws windows nobody can see").format(platform=platform)
