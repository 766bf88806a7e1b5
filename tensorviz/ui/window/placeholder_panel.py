"""An area that is not built yet: says plainly what it will show, and shows nothing fake."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QLabel, QListWidget, QVBoxLayout, QWidget

from tensorviz.resource_files import resource_path
from tensorviz.ui.window.areas import AreaSpec


class PlaceholderPanel(QWidget):
    def __init__(self, area: AreaSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.area = area
        self.setObjectName(f"placeholder_{area.key}")

        icon = QLabel()
        icon.setPixmap(QIcon(str(resource_path("icons", area.icon))).pixmap(56, 56))
        title = QLabel(area.title)
        title.setObjectName("placeholderTitle")
        tagline = QLabel(area.tagline)
        tagline.setObjectName("placeholderTagline")
        tagline.setWordWrap(True)
        status = QLabel(
            "Loading PyTorch…" if area.built else "Not built yet. This is what the area will show:"
        )
        status.setObjectName("placeholderStatus")
        coming = QLabel(
            "".join(f"<li style='margin-bottom:6px'>{item}</li>" for item in area.coming)
        )
        coming.setText(f"<ul style='margin-left:-20px'>{coming.text()}</ul>")
        coming.setWordWrap(True)
        coming.setTextFormat(Qt.TextFormat.RichText)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(48, 40, 48, 40)
        layout.setSpacing(10)
        for widget in (icon, title, tagline, status, coming):
            widget.setMaximumWidth(760)
            layout.addWidget(widget)
        self.extra_layout = QVBoxLayout()
        layout.addLayout(self.extra_layout)
        layout.addStretch(1)


class FilesPlaceholderPanel(PlaceholderPanel):
    """The Files placeholder also lists the files queued for the Files area (command line,
    File → Open, Recent files, drag and drop), so a request is never silently dropped."""

    def __init__(self, area: AreaSpec, parent: QWidget | None = None) -> None:
        super().__init__(area, parent)
        self.queue_label = QLabel()
        self.queue_label.setObjectName("placeholderStatus")
        self.queue_label.setWordWrap(True)
        self.queue_list = QListWidget()
        self.queue_list.setMaximumWidth(760)
        self.queue_list.setMaximumHeight(180)
        self.extra_layout.addWidget(self.queue_label)
        self.extra_layout.addWidget(self.queue_list)
        self.show_queue([])

    def show_queue(self, paths: list[str]) -> None:
        self.queue_list.clear()
        self.queue_list.addItems(paths)
        self.queue_list.setVisible(bool(paths))
        self.queue_label.setText(
            f"Queued to open when the Files area lands ({len(paths)}):"
            if paths
            else "Files you open (Ctrl+O, Recent files, drag and drop, command line) queue here."
        )
