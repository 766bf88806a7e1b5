"""The window's status bar: what torch reports (version, devices, threads) on the right, a busy
bar while it loads, and messages on the left that never run under the torch label — a message
longer than the room is shortened with … and shown whole in the tooltip (at 200 % zoom a
sentence easily outgrows a 1280-px window). A message is about the moment it was shown: a
switch of language clears it (it is in the old one), and so does a switch of area that comes
later than the gesture which showed it ("Nothing to undo here" said of another area)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QEvent, Qt
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar, QWidget

from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled

BUSY_WIDTH, BUSY_HEIGHT = 120, 14  # px at 100 %
MESSAGE_MARGIN = 24  # px at 100 %: the size grip and the gaps around the permanent widgets
SAME_GESTURE_MS = 1000  # a message shown this recently belongs to the switch of area itself


class WindowStatusBar(Retranslating, QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report = None  # EnvironmentReport once torch has loaded
        self.torch_failed = False
        self.torch_status = QLabel()
        self.torch_busy = QProgressBar()
        self.torch_busy.setRange(0, 0)
        self.addPermanentWidget(self.torch_status)
        self.addPermanentWidget(self.torch_busy)
        self.message_age = QElapsedTimer()
        self.rescale()
        self.retranslate()

    def rescale(self) -> None:
        self.torch_busy.setMaximumWidth(scaled(BUSY_WIDTH))
        self.torch_busy.setMaximumHeight(scaled(BUSY_HEIGHT))

    def set_report(self, report) -> None:
        self.report = report
        self.torch_busy.hide()
        self.retranslate()

    def set_torch_failed(self) -> None:
        self.torch_failed = True
        self.torch_busy.hide()
        self.retranslate()

    def retranslate(self) -> None:
        report = self.report
        if report is not None:
            threads = report.num_threads
            text = QCoreApplication.translate(
                "WindowStatusBar", "torch %1 · %2 · %n threads", "", threads
            )
            self.torch_status.setText(
                text.replace("%1", report.torch_version).replace("%2", ", ".join(report.devices))
            )
            self.torch_status.setToolTip(
                self.tr("Help → About tensorviz shows the whole environment")
            )
        elif self.torch_failed:
            self.torch_status.setText(self.tr("PyTorch unavailable"))
        else:
            self.torch_status.setText(self.tr("Loading PyTorch…"))

    def showMessage(self, message: str, timeout: int = 0) -> None:  # noqa: N802 (Qt's name)
        """Qt's message, shortened to the room left of the permanent widgets."""
        room = self.width() - self.torch_status.width() - scaled(MESSAGE_MARGIN)
        if self.torch_busy.isVisible():
            room -= self.torch_busy.width()
        shown = message
        if self.isVisible() and room > 0:
            shown = self.fontMetrics().elidedText(message, Qt.TextElideMode.ElideRight, room)
        self.setToolTip(message if shown != message else "")
        self.message_age.start()
        super().showMessage(shown, timeout)

    def area_changed(self) -> None:
        """The window shows another area: a message from before is about the old one."""
        if self.currentMessage() and self.message_age.elapsed() > SAME_GESTURE_MS:
            self.clearMessage()
            self.setToolTip("")

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.LanguageChange and self.currentMessage():
            self.clearMessage()  # its words are the old language's
            self.setToolTip("")
        super().changeEvent(event)
