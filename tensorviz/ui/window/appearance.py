"""View → Theme (system / light / dark) and View → Zoom (75 % … 250 %), applied to the whole
application: Qt's palette, the stylesheet, the base font and pyqtgraph's defaults. Widgets that
paint by hand or hold plot items listen to `changed` and restyle themselves. "System" follows
the desktop's colour scheme live: switching the desktop to dark turns the open window dark."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import QApplication

from tensorviz.ui.widgets import theme as themes
from tensorviz.ui.widgets.appearance_following import APPEARANCE_NAME
from tensorviz.ui.window.cjk_fonts import add_cjk_fallback

SYSTEM = "system"
THEME_CHOICES = (SYSTEM, "light", "dark")
BASE_POINT_SIZE = 10.0


def system_theme() -> themes.Theme:
    hints = QGuiApplication.styleHints()
    dark = hints is not None and hints.colorScheme() == Qt.ColorScheme.Dark
    return themes.DARK if dark else themes.LIGHT


def resolve_theme(choice: str | None) -> themes.Theme:
    return themes.THEMES.get(choice or SYSTEM) or system_theme()


_BASE_FONT: list[QFont] = []  # the platform's font, read once: zoom scales it, never compounds


def _base_font(app: QApplication) -> QFont:
    if not _BASE_FONT:
        font = add_cjk_fallback(QFont(app.font()))
        if font.pointSizeF() <= 0:
            font.setPointSizeF(BASE_POINT_SIZE)
        _BASE_FONT.append(font)
    return _BASE_FONT[0]


class Appearance(QObject):
    """The application's theme and zoom; one per application: use `Appearance.shared()`."""

    changed = Signal()  # theme or zoom changed: restyle what you painted yourself

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.theme_choice = SYSTEM
        self.theme = themes.LIGHT
        self.zoom = 1.0
        hints = QGuiApplication.styleHints()
        if hints is not None:
            hints.colorSchemeChanged.connect(self._on_color_scheme_changed)

    def _on_color_scheme_changed(self, _scheme) -> None:
        if self.theme_choice == SYSTEM and system_theme() is not self.theme:
            self.apply()

    def apply(self, theme_choice: str | None = None, zoom: float | None = None) -> None:
        if theme_choice is not None:
            self.theme_choice = theme_choice if theme_choice in THEME_CHOICES else SYSTEM
        if zoom is not None:
            self.zoom = min(themes.ZOOM_STEPS[-1], max(themes.ZOOM_STEPS[0], float(zoom)))
        self.theme = resolve_theme(self.theme_choice)
        themes.set_current(self.theme, self.zoom)
        app = QApplication.instance()
        font = QFont(_base_font(app))
        font.setPointSizeF(font.pointSizeF() * self.zoom)
        app.setFont(font)
        app.setPalette(themes.palette_of(self.theme))
        app.setStyleSheet(themes.stylesheet(self.theme, self.zoom))
        pg.setConfigOptions(
            background=self.theme.colours["plot_background"],
            foreground=self.theme.colours["plot_foreground"],
        )
        self.changed.emit()

    def zoom_in(self) -> None:
        self._step(+1)

    def zoom_out(self) -> None:
        self._step(-1)

    def reset_zoom(self) -> None:
        self.apply(zoom=1.0)

    def _step(self, direction: int) -> None:
        index = themes.nearest_zoom_step(self.zoom) + direction
        self.apply(zoom=themes.ZOOM_STEPS[max(0, min(len(themes.ZOOM_STEPS) - 1, index))])

    @classmethod
    def shared(cls) -> Appearance:
        app = QApplication.instance()
        found = app.findChild(cls, APPEARANCE_NAME)
        if found is None:
            found = cls(app)
            found.setObjectName(APPEARANCE_NAME)
        return found
