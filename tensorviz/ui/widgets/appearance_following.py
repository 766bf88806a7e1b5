"""Widgets that set their own colours or sizes (the script editor and output, the graph view and
its details pane, ...) style themselves again when View → Theme or View → Zoom changes.

The cue is Qt's own: the window's Appearance sets the application's palette, font and stylesheet,
and Qt tells every widget, shown or not. Listening to that needs no import of ui/window (which
composes the areas: importing it from an area would close an import circle)."""

from __future__ import annotations

from PySide6.QtCore import QEvent

from tensorviz.ui.widgets.theme import current_theme, current_zoom

_CUES = (
    QEvent.Type.PaletteChange,
    QEvent.Type.ApplicationPaletteChange,
    QEvent.Type.FontChange,
    QEvent.Type.ApplicationFontChange,
    QEvent.Type.StyleChange,
)


class FollowsAppearance:
    """Mixin, listed before the Qt base class. `restyle()` reads the theme's colours and the zoom
    again; it runs once per change of theme or zoom, however many events announce it."""

    _styled_for: tuple[str, float] | None = None

    def restyle(self) -> None:
        raise NotImplementedError

    def lost_style(self) -> bool:
        """Whether Qt undid part of the last restyle: re-polishing for a new stylesheet puts back
        the font a widget had when the stylesheet first styled it (the editor's zoomed font)."""
        return False

    def restyle_if_changed(self) -> None:
        now = (current_theme().key, current_zoom())
        if now != self._styled_for or self.lost_style():
            self._styled_for = now
            self.restyle()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in _CUES:
            self.restyle_if_changed()
