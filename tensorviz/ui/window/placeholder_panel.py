"""An area whose real panel is not built yet (torch is still loading): says plainly what it will
show, and shows nothing fake."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QLabel, QListWidget, QVBoxLayout, QWidget

from tensorviz.resource_files import resource_path
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled
from tensorviz.ui.window.areas import AreaSpec, coming_of, tagline_of, title_of

ICON = 56  # px at 100 %
TEXT_WIDTH = 760  # px at 100 %


class PlaceholderPanel(Retranslating, QWidget):
    def __init__(self, area: AreaSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.area = area
        self.setObjectName(f"placeholder_{area.key}")

        self.icon = QLabel()
        self.title = QLabel()
        self.title.setObjectName("placeholderTitle")
        self.tagline = QLabel()
        self.tagline.setObjectName("placeholderTagline")
        self.tagline.setWordWrap(True)
        self.status = QLabel()
        self.status.setObjectName("placeholderStatus")
        self.coming = QLabel()
        self.coming.setWordWrap(True)
        self.coming.setTextFormat(Qt.TextFormat.RichText)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(48, 40, 48, 40)
        layout.setSpacing(10)
        for widget in (self.icon, self.title, self.tagline, self.status, self.coming):
            layout.addWidget(widget)
        self.extra_layout = QVBoxLayout()
        layout.addLayout(self.extra_layout)
        layout.addStretch(1)
        self.rescale()
        self.retranslate()

    def rescale(self) -> None:
        """Icon and text width at the zoom in force (View → Zoom)."""
        icon = QIcon(str(resource_path("icons", self.area.icon)))
        self.icon.setPixmap(icon.pixmap(scaled(ICON), scaled(ICON)))
        for widget in (self.icon, self.title, self.tagline, self.status, self.coming):
            widget.setMaximumWidth(scaled(TEXT_WIDTH))

    def retranslate(self) -> None:
        self.title.setText(title_of(self.area))
        self.tagline.setText(tagline_of(self.area))
        self.status.setText(
            self.tr("Loading PyTorch…")
            if self.area.built
            else self.tr("Not built yet. This is what the area will show:")
        )
        items = "".join(
            f"<li style='margin-bottom:6px'>{escape(item)}</li>" for item in coming_of(self.area)
        )
        self.coming.setText(f"<ul style='margin-left:-20px'>{items}</ul>")


class FilesPlaceholderPanel(PlaceholderPanel):
    """The Files placeholder also lists the files queued for the Files area (command line,
    File → Open, Recent files, drag and drop), so a request is never silently dropped."""

    def __init__(self, area: AreaSpec, parent: QWidget | None = None) -> None:
        super().__init__(area, parent)
        self.queue_label = QLabel()
        self.queue_list = QListWidget()
        self.queue_label.setObjectName("placeholderStatus")
        self.queue_label.setWordWrap(True)
        self.queue_list.setProperty("verbatim", True)  # file paths, as the user gave them
        self.extra_layout.addWidget(self.queue_label)
        self.extra_layout.addWidget(self.queue_list)
        self.rescale()
        self.show_queue([])

    def rescale(self) -> None:
        super().rescale()
        if not hasattr(self, "queue_list"):  # (the base class's __init__ asks first)
            return
        self.queue_list.setMaximumWidth(scaled(TEXT_WIDTH))
        self.queue_list.setMaximumHeight(scaled(180))

    def show_queue(self, paths: list[str]) -> None:
        self.queue_list.clear()
        self.queue_list.addItems(paths)
        self.queue_list.setVisible(bool(paths))
        self.retranslate()

    def retranslate(self) -> None:
        super().retranslate()
        if not hasattr(self, "queue_list"):
            return
        count = self.queue_list.count()
        queued = QCoreApplication.translate(
            "FilesPlaceholderPanel", "Queued to open once PyTorch has loaded (%n):", "", count
        )
        self.queue_label.setText(
            queued
            if count
            else self.tr(
                "Files you open (Ctrl+O, Recent files, drag and drop, command line) queue here."
            )
        )
