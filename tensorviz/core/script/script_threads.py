"""Which threads a run started are the script's own.

A thread is the script's when the script's own code started it: the frame that called
`Thread.start()` (past threading.py's own frames) is a frame of the script's file, or the thread
runs a function of the script's file (its target, or a `run()` the script overrides). A thread
that a library starts inside its own code — at import, or later inside one of its calls, as
matplotlib-inline does when it makes an IPython shell whose history thread starts — is the
library's machinery, even when a helper module beside the script is that library.

Why this and not something simpler: "every thread that is new after the run" names the
libraries' threads as the script's; a thread's daemon flag says nothing about who started it
(IPython's history thread and a script's own watcher can both be daemons); the thread's name is
whatever its maker chose. Who called start() is a fact Python records in the calling frame, read
once per start.

How: while a run is active, `threading.Thread.start` is wrapped (the first run to begin installs
the wrapper, the last to end removes it); the wrapper records what called it, for every active
run, in any thread (a thread the script started may start more).
"""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field

_THREADING_FILE = threading.__file__


@dataclass
class ThreadStarts:
    """The threads started while one run was active, and which of them the script started."""

    filename: str  # the script's code filename
    own: list[threading.Thread] = field(default_factory=list)
    others: list[threading.Thread] = field(default_factory=list)

    def note(self, thread: threading.Thread, caller) -> None:
        if _started_by(caller, self.filename) or _runs_code_of(thread, self.filename):
            self.own.append(thread)
        else:
            self.others.append(thread)


def _started_by(frame, filename: str) -> bool:
    while frame is not None and frame.f_code.co_filename == _THREADING_FILE:
        frame = frame.f_back  # Timer and friends: their start() is threading's own
    return frame is not None and frame.f_code.co_filename == filename


def _runs_code_of(thread: threading.Thread, filename: str) -> bool:
    run = getattr(type(thread).run, "__code__", None)
    target = getattr(getattr(thread, "_target", None), "__code__", None)
    return any(code is not None and code.co_filename == filename for code in (run, target))


_ACTIVE: list[ThreadStarts] = []
_LOCK = threading.Lock()
_ORIGINAL_START = threading.Thread.start


def _recording_start(self, *args, **kwargs):
    caller = sys._getframe(1)
    for starts in list(_ACTIVE):
        starts.note(self, caller)
    return _ORIGINAL_START(self, *args, **kwargs)


@contextmanager
def threads_started(filename: str):
    """Record, for the block's duration, every thread started and whether the script (its code
    compiled with `filename`) started it."""
    starts = ThreadStarts(filename)
    with _LOCK:
        if not _ACTIVE:
            threading.Thread.start = _recording_start
        _ACTIVE.append(starts)
    try:
        yield starts
    finally:
        with _LOCK:
            _ACTIVE.remove(starts)
            if not _ACTIVE:
                threading.Thread.start = _ORIGINAL_START
