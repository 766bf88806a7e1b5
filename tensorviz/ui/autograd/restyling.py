"""Widgets of the Autograd graph and the Architecture area that paint with the theme's colours
or size things by View → Zoom restyle themselves in one `restyle()` method, once the theme or
the zoom in force (ui/widgets/theme.py) differs from what they last styled for.

View → Theme and View → Zoom (ui/window/appearance.py) set the application's palette, font and
stylesheet, and Qt tells every widget (PaletteChange, FontChange, StyleChange): that is the cue
here, so these areas need no import of the window package that builds them."""

from __future__ import annotations

from PySide6.QtCore import QEvent

from tensorviz.ui.widgets.theme import current_theme, current_zoom

_APPEARANCE_EVENTS = (
    QEvent.Type.PaletteChange,
    QEvent.Type.FontChange,
    QEvent.Type.StyleChange,
)


class Restyling:
    """Mixin, listed before the Qt base class: `class GraphView(Restyling, QGraphicsView)`."""

    _styled_for: tuple[str, float] | None = None

    def restyle(self) -> None:  # read colours and zoom-dependent sizes again here
        raise NotImplementedError

    def restyle_if_changed(self) -> None:
        appearance = (current_theme().key, current_zoom())
        if appearance != self._styled_for:
            self._styled_for = appearance
            self.restyle()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in _APPEARANCE_EVENTS:
            self.restyle_if_changed()
        super().changeEvent(event)
