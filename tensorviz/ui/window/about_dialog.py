"""Help → About: the versions and devices a learner checks first, from core.environment (whose
row labels are core's gettext texts, so `tensorviz env` prints the same words)."""

from __future__ import annotations

from html import escape

import PySide6
from PySide6.QtCore import QCoreApplication, Qt, qVersion
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tensorviz.resource_files import resource_path
from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled
from tensorviz.ui.window.appearance import Appearance
from tensorviz.version import __version__


def qt_rows() -> list[tuple[str, str]]:
    """What only a running Qt knows; core reports the installed PySide6 from its metadata."""
    loaded = QCoreApplication.translate("AboutDialog", "%1 (PySide6 %2 loaded)")
    label = QCoreApplication.translate("AboutDialog", "Qt runtime")
    return [(label, loaded.replace("%1", qVersion()).replace("%2", PySide6.__version__))]


class AboutDialog(Retranslating, QDialog):
    def __init__(self, report=None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report = report

        self.logo = logo = QLabel()
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(logo, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.heading, 1)

        self.grid = QGridLayout()
        self.grid.setHorizontalSpacing(16)
        self.grid.setVerticalSpacing(4)
        self.grid.setColumnStretch(1, 1)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton()
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self._on_copy_clicked)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(self.grid)
        layout.addWidget(buttons)
        self.rescale()
        Appearance.shared().changed.connect(self.rescale)
        self.retranslate()

    def rescale(self) -> None:
        """The logo and the width at the zoom in force (View → Zoom, also while it is open)."""
        self.setMinimumWidth(scaled(520))
        icon = QIcon(str(resource_path("icons", "tensorviz.svg")))
        self.logo.setPixmap(icon.pixmap(scaled(64), scaled(64)))

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("About tensorviz"))
        tagline = self.tr(
            "See PyTorch: tensors, strides and storage, autograd graphs and training, "
            "on real torch objects."
        )
        self.heading.setText(
            f"<h2 style='margin:0'>tensorviz {__version__}</h2><p>{escape(tagline)}</p>"
        )
        self.copy_button.setText(self.tr("Copy to clipboard"))
        self.copy_button.setToolTip(self.tr("Copy the environment as text, e.g. for a bug report"))
        self.set_report(self.report)  # (core's row labels are in the language in force now)

    def rows(self) -> list[tuple[str, str]]:
        if self.report is None:
            return [("torch", self.tr("still loading…"))] + qt_rows()
        return self.report.rows() + qt_rows()

    def set_report(self, report) -> None:
        """Fill in (or refresh) the environment; None means torch is still loading."""
        self.report = report
        clear_layout(self.grid)
        for row, (label, value) in enumerate(self.rows()):
            name = QLabel(f"<b>{escape(label)}</b>")
            text = QLabel(value)
            text.setProperty("verbatim", True)  # versions, platform, device names: as reported
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.grid.addWidget(name, row, 0, Qt.AlignmentFlag.AlignTop)
            self.grid.addWidget(text, row, 1)
        self.copy_button.setEnabled(report is not None)

    def as_text(self) -> str:
        return "\n".join(f"{label}: {value}" for label, value in self.rows())

    def _on_copy_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.as_text())
