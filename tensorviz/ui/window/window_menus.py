"""The menu bar: File, Edit, View and Help, every action with its shortcut, and the texts in the
language in force (`retranslate`, called by the window on every language change; the Recent and
Example Scripts submenus are rebuilt each time they open)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMessageBox

from tensorviz.ui.session.session_actions import SessionActions
from tensorviz.ui.window.areas import AREAS, icon_of, title_of
from tensorviz.ui.window.view_settings_menus import LanguageMenu, ThemeMenu, ZoomMenu


class WindowMenus(QObject):
    """Builds the window's menus; the window keeps the actions other code reaches for."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        bar = window.menuBar()
        self.file_menu = bar.addMenu("")
        self.open_action = self.file_menu.addAction("", window.open_dialog)
        self.open_action.setShortcut(QKeySequence.StandardKey.Open)
        self.folder_action = self.file_menu.addAction("", window.open_folder_dialog)
        self.folder_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.run_action = self.file_menu.addAction("", window.open_run_dialog)
        self.run_action.setShortcut(QKeySequence("Ctrl+Shift+U"))  # (Ctrl+Shift+R: Run to step)
        self.recent_menu = self.file_menu.addMenu("")
        self.recent_menu.aboutToShow.connect(self.rebuild_recent_menu)
        self.compare_action = self.file_menu.addAction("", window.compare_checkpoints)
        self.compare_action.setShortcut(QKeySequence("Ctrl+Shift+D"))
        self.examples_menu = self.file_menu.addMenu("")
        self.examples_menu.setObjectName("exampleScripts")
        self.examples_menu.aboutToShow.connect(self.rebuild_examples_menu)
        self.file_menu.addSeparator()
        self.sessions = SessionActions(window, self.file_menu)
        self.file_menu.addSeparator()
        self.quit_action = self.file_menu.addAction("", window.close)
        self.quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)

        self.edit_menu = bar.addMenu("")
        self.undo_action = self.edit_menu.addAction("", window.undo)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = self.edit_menu.addAction("", window.redo)
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])

        self.view_menu = bar.addMenu("")
        self.area_actions = QActionGroup(window)
        for row, area in enumerate(AREAS):
            action = self.view_menu.addAction(icon_of(area), "")
            action.setCheckable(True)
            action.setShortcut(QKeySequence(f"Ctrl+{row + 1}"))
            action.triggered.connect(lambda _=False, r=row: window.navigation.setCurrentRow(r))
            self.area_actions.addAction(action)
        self.view_menu.addSeparator()
        self.full_screen = self.view_menu.addAction("", window.toggle_full_screen)
        self.full_screen.setShortcut(QKeySequence.StandardKey.FullScreen)
        self.view_menu.addSeparator()
        self.language_menu = LanguageMenu(window.language, window.settings, self.view_menu)
        self.theme_menu = ThemeMenu(window.appearance, window.settings, self.view_menu)
        self.zoom_menu = ZoomMenu(window.appearance, window.settings, self.view_menu)
        for menu in (self.language_menu, self.theme_menu, self.zoom_menu):
            self.view_menu.addMenu(menu)

        self.help_menu = bar.addMenu("")
        self.about_action = self.help_menu.addAction("", window.show_about)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.about_qt_action = self.help_menu.addAction("", QMessageBox.aboutQt)
        self.about_qt_action.setMenuRole(QAction.MenuRole.AboutQtRole)
        self.retranslate()

    def retranslate(self) -> None:
        self.file_menu.setTitle(self.tr("&File"))
        self.open_action.setText(self.tr("&Open…"))
        self.open_action.setStatusTip(
            self.tr("Open tensor files and checkpoints in the Files area")
        )
        self.folder_action.setText(self.tr("Open &Folder…"))
        self.folder_action.setStatusTip(
            self.tr("Open a checkpoint folder: shards, configs, a distributed one")
        )
        self.run_action.setText(self.tr("Open R&un Folder…"))
        self.run_action.setStatusTip(
            self.tr("Follow a run folder of tensorviz.watch() live in the Runs area")
        )
        self.recent_menu.setTitle(self.tr("Open &Recent"))
        self.compare_action.setText(self.tr("&Compare…"))
        self.compare_action.setStatusTip(
            self.tr("Compare two checkpoints (or two selected entries) tensor by tensor")
        )
        self.examples_menu.setTitle(self.tr("Example &Scripts"))
        self.quit_action.setText(self.tr("&Quit"))
        self.edit_menu.setTitle(self.tr("&Edit"))
        self.undo_action.setText(self.tr("&Undo"))
        self.undo_action.setStatusTip(self.tr("Undo the last change to the workspace"))
        self.redo_action.setText(self.tr("&Redo"))
        self.redo_action.setStatusTip(self.tr("Redo what Undo took back"))
        self.view_menu.setTitle(self.tr("&View"))
        for area, action in zip(AREAS, self.area_actions.actions(), strict=True):
            action.setText(title_of(area))
        self.full_screen.setText(self.tr("&Full Screen"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.about_action.setText(self.tr("&About tensorviz"))
        self.about_qt_action.setText(self.tr("About &Qt"))
        self.sessions.retranslate()
        self.rebuild_recent_menu()
        self.rebuild_examples_menu()

    def rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.window.settings.recent_files()
        for number, path in enumerate(recent, start=1):
            action = self.recent_menu.addAction(f"&{number % 10}  {Path(path).name}")
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _=False, p=path: self.window.open_paths([p]))
        if not recent:
            self.recent_menu.addAction(self.tr("No recent files")).setEnabled(False)
            return
        self.recent_menu.addSeparator()
        self.recent_menu.addAction(
            self.tr("Clear Recent Files"), self.window.settings.clear_recent_files
        )

    def rebuild_examples_menu(self) -> None:
        """The Script area's examples, loaded there once torch is in (titles: core/script's)."""
        from tensorviz.core.script.examples import script_examples  # (no torch import)

        self.examples_menu.clear()
        for example in script_examples():
            action = self.examples_menu.addAction(example.title)
            action.setEnabled(self.window.context is not None)
            action.triggered.connect(lambda _=False, k=example.key: self.window.open_example(k))
