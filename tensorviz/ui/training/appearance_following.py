"""Widgets of the Training area that restyle themselves when View → Theme or View → Zoom changes.

Appearance (ui/window) applies a theme by setting the application's palette and a zoom by setting
its font; Qt then sends every widget PaletteChange and FontChange. Listening to those events
instead of to Appearance.changed keeps this package free of an import of ui/window (which builds
the areas, so importing it back would make a circle)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer

RESTYLING_EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.FontChange)


class FollowsAppearance:
    """Mixin, listed before the Qt base class: restyle() reads colours (theme.colour) and sizes
    (theme.scaled, fontMetrics) in force; it runs again whenever the theme or zoom changes —
    once the event loop is back, when the children have their new fonts too (a widget hears of
    a font change before its children), and once for a palette and a font change together."""

    def restyle(self) -> None:
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in RESTYLING_EVENTS and not getattr(self, "_restyle_pending", False):
            self._restyle_pending = True
            QTimer.singleShot(0, self, self._restyle_now)  # (not called once self is deleted)
        super().changeEvent(event)

    def _restyle_now(self) -> None:
        self._restyle_pending = False
        self.restyle()
