"""Widgets that set their own colours or sizes style themselves again when View → Theme or
View → Zoom changes: at once (FollowsAppearance: the script editor and output, the graph view and
its details pane, ...), or once the event loop is back (FollowsAppearanceLater: the Training,
Files and Compare areas, whose sizes depend on their children's new fonts and on pyqtgraph's
defaults, which Appearance sets last), or right after Appearance.apply has set all of it
(on_appearance_changed: the Workbench's widgets, which restyle from its `changed` signal).

The mixins' cue is Qt's own: the window's Appearance sets the application's palette, font and
stylesheet, and Qt tells every widget, shown or not. Listening to that needs no import of
ui/window (which composes the areas: importing it from an area would close an import circle);
the signal is found by the Appearance's object name for the same reason."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer

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


# A change of theme sends every widget a PaletteChange, one of zoom a FontChange; not the
# StyleChange of every re-polish (restyling on those too left the Training area unreadable at
# the window's minimum size: tests/ui/training/test_training_robustness.py).
_LATER_CUES = (QEvent.Type.PaletteChange, QEvent.Type.FontChange)


class FollowsAppearanceLater:
    """Mixin, listed before the Qt base class: `restyle()` runs once the event loop is back after
    a change of theme or zoom — when the children have their new fonts too (a widget hears of a
    font change before its children) and pyqtgraph's defaults are set — once for the palette
    and font events of one change together. The pending flag is cleared before
    `restyle()` runs, so a cue that arrives while it runs is not lost."""

    _restyle_pending = False

    def restyle(self) -> None:
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in _LATER_CUES and not self._restyle_pending:
            self._restyle_pending = True
            QTimer.singleShot(0, self, self._restyle_now)  # (not called once self is deleted)
        super().changeEvent(event)

    def _restyle_now(self) -> None:
        self._restyle_pending = False
        self.restyle()


APPEARANCE_NAME = "tensorviz_appearance"  # Appearance.shared()'s object name


def on_appearance_changed(slot: Callable[[], None]) -> bool:
    """Call `slot` after every change of theme or zoom, once Appearance.apply has set the font,
    palette, stylesheet and pyqtgraph's defaults; False when there is no Appearance (a widget
    shown without a window: nothing changes its theme or zoom then)."""
    app = QCoreApplication.instance()
    appearance = app.findChild(QObject, APPEARANCE_NAME) if app is not None else None
    if appearance is None:
        return False
    appearance.changed.connect(slot)
    return True
