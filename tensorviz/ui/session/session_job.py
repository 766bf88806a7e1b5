"""Writing or reading a session off the GUI thread, with progress and cancel.

The job is a plain callable `job(progress, cancelled)`; its result or its one-sentence error
comes back through signals. The window is joined to the thread before it closes.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QThread, Signal

from tensorviz.core.session.session_format import SessionCancelledError, SessionFileError


class SessionJob(QThread):
    progressed = Signal(int, int)  # bytes done, bytes in all
    succeeded = Signal(object)  # what the job returned
    failed = Signal(str)  # one sentence
    cancelled_by_user = Signal()

    def __init__(self, job, parent=None) -> None:
        super().__init__(parent)
        self.job = job
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def run(self) -> None:
        try:
            result = self.job(self.progressed.emit, self._cancel.is_set)
        except SessionCancelledError:
            self.cancelled_by_user.emit()
        except SessionFileError as error:
            self.failed.emit(str(error))
        except OSError as error:
            sentence = self.tr("The session could not be written or read: %1.")
            self.failed.emit(sentence.replace("%1", str(error.strerror or error)))
        except Exception as error:  # noqa: BLE001 — a bug must reach the user as a sentence
            sentence = self.tr("The session could not be handled: %1")
            self.failed.emit(sentence.replace("%1", f"{type(error).__name__}: {error}"))
        else:
            self.succeeded.emit(result)
