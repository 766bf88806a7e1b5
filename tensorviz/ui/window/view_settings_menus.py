"""View → Language, View → Theme and the View → Zoom actions: what a learner or a teacher at a
projector changes about the window itself. Each choice applies at once and is remembered."""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from tensorviz.core import translation
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.window import appearance as appearance_module
from tensorviz.ui.window import language as language_module


class LanguageMenu(Retranslating, QMenu):
    def __init__(self, switcher, settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.switcher = switcher
        self.settings = settings
        self.group = QActionGroup(self)
        self.choices: dict[str, QAction] = {}
        chosen = settings.language() or language_module.SYSTEM
        for key in (language_module.SYSTEM, *translation.LANGUAGES):
            action = self.addAction("")
            action.setCheckable(True)
            action.setChecked(key == chosen)
            action.triggered.connect(lambda _=False, k=key: self._on_language_chosen(k))
            self.group.addAction(action)
            self.choices[key] = action
        self.retranslate()

    def retranslate(self) -> None:
        self.setTitle(self.tr("&Language"))
        self.choices[language_module.SYSTEM].setText(self.tr("System Default"))
        for key, name in translation.LANGUAGES.items():
            self.choices[key].setText(name)  # each language in its own words

    def _on_language_chosen(self, key: str) -> None:
        self.settings.set_language(key)
        self.switcher.apply(key)


class ThemeMenu(Retranslating, QMenu):
    def __init__(self, appearance, settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.appearance = appearance
        self.settings = settings
        self.group = QActionGroup(self)
        self.choices: dict[str, QAction] = {}
        for key in appearance_module.THEME_CHOICES:
            action = self.addAction("")
            action.setCheckable(True)
            action.setChecked(key == appearance.theme_choice)
            action.triggered.connect(lambda _=False, k=key: self._on_theme_chosen(k))
            self.group.addAction(action)
            self.choices[key] = action
        self.retranslate()

    def retranslate(self) -> None:
        self.setTitle(self.tr("&Theme"))
        self.choices["system"].setText(self.tr("System"))
        self.choices["light"].setText(self.tr("Light"))
        self.choices["dark"].setText(self.tr("Dark"))

    def _on_theme_chosen(self, key: str) -> None:
        self.settings.set_theme(key)
        self.appearance.apply(theme_choice=key)


class ZoomMenu(Retranslating, QMenu):
    def __init__(self, appearance, settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.appearance = appearance
        self.settings = settings
        self.zoom_in = self.addAction("", lambda: self._change(appearance.zoom_in))
        self.zoom_in.setShortcuts([QKeySequence("Ctrl+="), QKeySequence.StandardKey.ZoomIn])
        self.zoom_out = self.addAction("", lambda: self._change(appearance.zoom_out))
        self.zoom_out.setShortcuts([QKeySequence("Ctrl+-"), QKeySequence.StandardKey.ZoomOut])
        self.addSeparator()
        self.reset = self.addAction("", lambda: self._change(appearance.reset_zoom))
        self.reset.setShortcut(QKeySequence("Ctrl+0"))
        appearance.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self) -> None:
        percent = round(self.appearance.zoom * 100)
        self.setTitle(self.tr("&Zoom (%1 %)").replace("%1", str(percent)))
        self.zoom_in.setText(self.tr("Zoom &In"))
        self.zoom_out.setText(self.tr("Zoom &Out"))
        self.reset.setText(self.tr("&Reset Zoom"))

    def _change(self, step) -> None:
        step()
        self.settings.set_zoom(self.appearance.zoom)
