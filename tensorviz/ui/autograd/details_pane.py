"""The rich-text pane beside a graph (the Autograd graph's node details, the Architecture area's
module details). It keeps how its text is made, not the text: a switch of language or theme
renders it again, so what stays on screen is always in the language and colours in force."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QTextBrowser, QWidget

from tensorviz.ui.widgets.appearance_following import FollowsAppearance
from tensorviz.ui.widgets.theme import current_zoom


def heading(html: str) -> str:
    """The pane's title line: 12 pt at 100 %, scaled by View → Zoom like the app's font."""
    return f"<b style='font-size:{round(12 * current_zoom())}pt'>{html}</b>"


class DetailsPane(FollowsAppearance, QTextBrowser):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._render: Callable[[], str] = str
        self._styled_for = None

    def show_text(self, render: Callable[[], str]) -> None:
        """Show `render()` now and again whenever the language or the theme changes."""
        self._render = render
        self.setHtml(render())

    def refresh(self) -> None:
        self.setHtml(self._render())

    def restyle(self) -> None:
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.LanguageChange:
            self.refresh()
        super().changeEvent(event)
