"""Restyling after a change of theme or zoom, with no import of the window (ui/window builds the
areas, so an area importing it is a circle): Appearance.apply sets the application's stylesheet,
which sends every widget a StyleChange; the widget's `restyle()` runs once after it, when the
theme, the font and pyqtgraph's defaults are all in force (the events of one change fold)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer


class Restyling:
    """Mixin, listed before the Qt base class: `class Panel(Restyling, QWidget)`."""

    _restyle_pending = False

    def restyle(self) -> None:  # colours at paint time, sizes set by hand through scaled()
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.StyleChange and not self._restyle_pending:
            self._restyle_pending = True
            QTimer.singleShot(0, self, self._restyle_now)
        super().changeEvent(event)

    def _restyle_now(self) -> None:
        self.restyle()
        self._restyle_pending = False  # what restyle() itself re-polished is folded in
