"""The main window: composes the areas, menus and status bar; holds no feature logic."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.files.open_requests import PathProblem, split_openable
from tensorviz.resource_files import resource_path
from tensorviz.ui.session.session_actions import SessionActions
from tensorviz.ui.widgets.notice_bar import NoticeBar
from tensorviz.ui.window.about_dialog import AboutDialog
from tensorviz.ui.window.app_settings import AppSettings
from tensorviz.ui.window.appearance import Appearance
from tensorviz.ui.window.areas import AREAS
from tensorviz.ui.window.language import LanguageSwitcher
from tensorviz.ui.window.navigation_list import NavigationList
from tensorviz.ui.window.placeholder_panel import FilesPlaceholderPanel, PlaceholderPanel
from tensorviz.ui.window.torch_loader import TorchLoader
from tensorviz.ui.window.view_settings_menus import LanguageMenu, ThemeMenu, ZoomMenu

OPEN_FILTER = (
    "Checkpoint files (*.pt *.pth *.bin *.ckpt *.tar *.pkl *.safetensors *.npy *.npz *.json "
    ".metadata);;All files (*)"
)


def icon(name: str) -> QIcon:
    return QIcon(str(resource_path("icons", name)))


class MainWindow(QMainWindow):
    first_painted = Signal()
    torch_loaded = Signal(object)  # EnvironmentReport
    ready = Signal()  # painted once and torch loaded (or failed to load)
    files_queued = Signal(list)
    panel_built = Signal(str, object)  # area key, its real panel (built on first use)
    closed = Signal()  # the window has closed and its areas have stopped their work

    def __init__(
        self,
        settings: AppSettings,
        parent: QWidget | None = None,
        workspace=None,
        language: str | None = None,
    ) -> None:
        """`workspace`: the tensors to open on (the Python API's); None starts on the examples
        a first-time user sees, or on the last session (see ui/session). `language` ('en',
        'zh_CN', 'system') overrides the remembered one for this run."""
        super().__init__(parent)
        self.settings = settings
        self.language = LanguageSwitcher.shared()
        self.language.apply(language or settings.language())
        self.appearance = Appearance.shared()
        self.appearance.apply(settings.theme() or "system", settings.zoom())
        self.environment = None
        self.given_workspace = workspace
        self.context = None  # AreaContext (the shared workspace) once torch has loaded
        self.tensor_in_focus: str | None = None  # last tensor picked in the Workbench or Files
        self.queued_files: list[str] = []
        self._painted = False
        self._torch_settled = False
        self._about: AboutDialog | None = None
        self.loader = TorchLoader(self)
        self.loader.loaded.connect(self._on_torch_loaded)
        self.loader.failed.connect(self._on_torch_failed)

        self.setWindowTitle("tensorviz")
        self.setWindowIcon(icon("tensorviz.svg"))
        self.setAcceptDrops(True)
        self._build_areas()
        self._build_status_bar()
        self._build_menus()
        self._restore()

    # --- construction ----------------------------------------------------------------------------

    def _build_areas(self) -> None:
        self.navigation = NavigationList()
        self.stack = QStackedWidget()
        self.panels: dict[str, QWidget] = {}
        for area in AREAS:
            panel_class = FilesPlaceholderPanel if area.key == "files" else PlaceholderPanel
            panel = panel_class(area)
            self.panels[area.key] = panel
            self.stack.addWidget(panel)
            self.navigation.add_area(icon(area.icon), area.key, area.title, area.tagline)
        self.navigation.currentRowChanged.connect(self._on_area_changed)

        self.notice_bar = NoticeBar()
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(0)
        body.addWidget(self.navigation)
        body.addWidget(self.stack, 1)
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.notice_bar)
        column.addLayout(body, 1)
        self.setCentralWidget(central)

    def _build_status_bar(self) -> None:
        self.torch_status = QLabel("Loading PyTorch…")
        self.torch_busy = QProgressBar()
        self.torch_busy.setRange(0, 0)
        self.torch_busy.setMaximumWidth(120)
        self.torch_busy.setMaximumHeight(14)
        self.statusBar().addPermanentWidget(self.torch_status)
        self.statusBar().addPermanentWidget(self.torch_busy)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        open_action = file_menu.addAction("&Open…", self.open_dialog)
        open_action.setShortcut(QKeySequence.StandardKey.Open)
        folder_action = file_menu.addAction("Open &Folder…", self.open_folder_dialog)
        folder_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        folder_action.setStatusTip("Open a checkpoint folder: shards, configs, a distributed one")
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._rebuild_recent_menu)
        self._rebuild_recent_menu()
        compare = file_menu.addAction("&Compare…", self.compare_checkpoints)
        compare.setShortcut(QKeySequence("Ctrl+Shift+D"))
        compare.setStatusTip("Compare two checkpoints (or two selected entries) tensor by tensor")
        self.examples_menu = file_menu.addMenu("Example &Scripts")
        self.examples_menu.aboutToShow.connect(self._rebuild_examples_menu)
        self._rebuild_examples_menu()
        file_menu.addSeparator()
        self.sessions = SessionActions(self, file_menu)
        file_menu.addSeparator()
        quit_action = file_menu.addAction("&Quit", self.close)
        quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        quit_action.setMenuRole(QAction.MenuRole.QuitRole)

        edit_menu = self.menuBar().addMenu("&Edit")
        self.undo_action = edit_menu.addAction("&Undo", self.undo)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.setStatusTip("Undo the last change to the workspace")
        self.redo_action = edit_menu.addAction("&Redo", self.redo)
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.redo_action.setStatusTip("Redo what Undo took back")

        view_menu = self.menuBar().addMenu("&View")
        self.area_actions = QActionGroup(self)
        for row, area in enumerate(AREAS):
            action = view_menu.addAction(icon(area.icon), area.title)
            action.setCheckable(True)
            action.setShortcut(QKeySequence(f"Ctrl+{row + 1}"))
            action.triggered.connect(lambda _=False, r=row: self.navigation.setCurrentRow(r))
            self.area_actions.addAction(action)
        view_menu.addSeparator()
        full_screen = view_menu.addAction("&Full Screen", self._toggle_full_screen)
        full_screen.setShortcut(QKeySequence.StandardKey.FullScreen)
        view_menu.addSeparator()
        self.language_menu = LanguageMenu(self.language, self.settings, view_menu)
        self.theme_menu = ThemeMenu(self.appearance, self.settings, view_menu)
        self.zoom_menu = ZoomMenu(self.appearance, self.settings, view_menu)
        for menu in (self.language_menu, self.theme_menu, self.zoom_menu):
            view_menu.addMenu(menu)

        help_menu = self.menuBar().addMenu("&Help")
        about = help_menu.addAction("&About tensorviz", self.show_about)
        about.setMenuRole(QAction.MenuRole.AboutRole)
        help_menu.addAction("About &Qt", QMessageBox.aboutQt)

    def _restore(self) -> None:
        if geometry := self.settings.geometry():
            self.restoreGeometry(geometry)
        else:  # first run: generous, but never larger than the screen
            available = self.screen().availableGeometry()
            self.resize(
                min(1280, int(available.width() * 0.9)), min(820, int(available.height() * 0.9))
            )
        if state := self.settings.window_state():
            self.restoreState(state)
        keys = [area.key for area in AREAS]
        saved = self.settings.current_area()
        self.navigation.setCurrentRow(keys.index(saved) if saved in keys else 0)

    # --- areas -----------------------------------------------------------------------------------

    def current_area(self) -> str:
        return AREAS[self.stack.currentIndex()].key

    def show_area(self, key: str) -> None:
        self.navigation.setCurrentRow([area.key for area in AREAS].index(key))

    def _on_area_changed(self, row: int) -> None:
        self.panel(AREAS[row].key)  # built on first visit
        self.stack.setCurrentIndex(row)
        self.area_actions.actions()[row].setChecked(True)
        self.settings.set_current_area(AREAS[row].key)

    def undo(self) -> None:
        """Edit → Undo: the current area's undo (the workspace's, in the Workbench)."""
        panel = self.panels[self.current_area()]
        if hasattr(panel, "undo"):
            panel.undo()
        else:
            self.statusBar().showMessage("Nothing to undo here", 4000)

    def redo(self) -> None:
        """Edit → Redo: the current area's redo (the workspace's, in the Workbench)."""
        panel = self.panels[self.current_area()]
        if hasattr(panel, "redo"):
            panel.redo()
        else:
            self.statusBar().showMessage("Nothing to redo here", 4000)

    def _toggle_full_screen(self) -> None:
        self.showNormal() if self.isFullScreen() else self.showFullScreen()

    # --- opening files ---------------------------------------------------------------------------

    def open_paths(self, paths: list[str]) -> tuple[list[str], list[PathProblem]]:
        """Queue readable files for the Files area; explain every path that cannot be opened.
        Returns the queued paths and the problems. Session files open as sessions."""
        good, problems = split_openable(self.sessions.take_sessions(paths), folders=True)
        for problem in problems:
            if problem.path in self.settings.recent_files():
                self.settings.remove_recent_file(problem.path)
        messages = [p.message() for p in problems]
        if problems:
            self.notice_bar.show_messages(messages)
            self.statusBar().showMessage(messages[-1], 10_000)
        if good:
            for path in good:
                self.settings.add_recent_file(path)
                if path not in self.queued_files:
                    self.queued_files.append(path)
            self.panel("files").show_queue(self.queued_files)
            self.show_area("files")
            self.statusBar().showMessage(f"Queued {len(good)} file(s) for the Files area", 5_000)
            self.files_queued.emit(good)
        return good, problems

    def open_dialog(self) -> None:
        recent = self.settings.recent_files()
        start = str(Path(recent[0]).parent) if recent else str(Path.home())
        paths, _ = QFileDialog.getOpenFileNames(self, "Open tensor files", start, OPEN_FILTER)
        if paths:
            self.open_paths(paths)

    def compare_checkpoints(self) -> None:
        """File → Compare…: the Compare area (built once torch has loaded)."""
        if self.context is None:
            self.statusBar().showMessage("PyTorch is still loading; Compare opens once it is in.")
            return
        from tensorviz.ui.diff.compare_links import compare_from_menu

        compare_from_menu(self)

    def open_folder_dialog(self) -> None:
        recent = self.settings.recent_files()
        start = str(Path(recent[0]).parent) if recent else str(Path.home())
        folder = QFileDialog.getExistingDirectory(self, "Open a checkpoint folder", start)
        if folder:
            self.open_paths([folder])

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.settings.recent_files()
        for number, path in enumerate(recent, start=1):
            name = Path(path).name
            action = self.recent_menu.addAction(f"&{number % 10}  {name}")
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _=False, p=path: self.open_paths([p]))
        if not recent:
            self.recent_menu.addAction("No recent files").setEnabled(False)
            return
        self.recent_menu.addSeparator()
        self.recent_menu.addAction("Clear Recent Files", self.settings.clear_recent_files)

    def _rebuild_examples_menu(self) -> None:
        """File → Example Scripts: the Script area's examples, loaded there once torch is in."""
        from tensorviz.core.script.examples import script_examples  # (no torch import)

        self.examples_menu.clear()
        for example in script_examples():
            action = self.examples_menu.addAction(example.title)
            action.setEnabled(self.context is not None)
            action.triggered.connect(lambda _=False, k=example.key: self.open_example(k))

    def open_example(self, key: str) -> None:
        self.panel("script").load_example(key)
        self.show_area("script")

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if paths:
            self.open_paths(paths)
            event.acceptProposedAction()

    # --- torch loading and readiness -------------------------------------------------------------

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.navigation.fit_window_width(event.size().width())

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_painted.emit()
            # Start the heavy import only once the window is on screen.
            QTimer.singleShot(0, self.loader.start)

    def _on_torch_loaded(self, report) -> None:
        self.environment = report
        self.torch_status.setText(
            f"torch {report.torch_version} · {', '.join(report.devices)} · "
            f"{report.num_threads} threads"
        )
        self.torch_status.setToolTip("Help → About tensorviz shows the whole environment")
        if self._about is not None:
            self._about.set_report(report)
        self._build_real_areas(report)
        self._settle_torch()
        self.torch_loaded.emit(report)

    def _build_real_areas(self, report) -> None:
        """Create the shared workspace and build the area on screen; the others are built on
        first use (panel()), so the window is interactive as soon as torch has loaded."""
        from tensorviz.ui.window.area_builders import default_context

        self.context = default_context(report, self.settings, self.given_workspace)
        self.panel(self.current_area())
        if self.queued_files:  # opened before torch loaded (e.g. the command line)
            self.panel("files").show_queue(self.queued_files)
        self.stack.setCurrentIndex(self.navigation.currentRow())

    def built_panel(self, key: str) -> QWidget | None:
        """The area's real panel if it has been built, else None."""
        panel = self.panels[key]
        return None if isinstance(panel, PlaceholderPanel) else panel

    def panel(self, key: str) -> QWidget:
        """The area's panel, built now if torch has loaded and nobody needed it before."""
        if self.context is None or self.built_panel(key) is not None:
            return self.panels[key]  # (area_builders imports torch: never before it has loaded)
        from tensorviz.ui.window.area_builders import BUILDERS, link_new_panel

        if key not in BUILDERS:
            return self.panels[key]
        panel = BUILDERS[key](self.context)
        placeholder = self.panels[key]
        index = self.stack.indexOf(placeholder)
        current = self.stack.currentIndex()
        self.stack.removeWidget(placeholder)
        placeholder.deleteLater()
        self.stack.insertWidget(index, panel)
        self.stack.setCurrentIndex(current)
        self.panels[key] = panel
        if hasattr(panel, "status_message"):
            panel.status_message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        link_new_panel(key, panel, self)
        self.panel_built.emit(key, panel)
        return panel

    def _on_torch_failed(self, message: str) -> None:
        self.torch_status.setText("PyTorch unavailable")
        self.notice_bar.show_messages([message])
        self._settle_torch()

    def _settle_torch(self) -> None:
        self.torch_busy.hide()
        self._torch_settled = True
        self.ready.emit()

    def is_ready(self) -> bool:
        return self._painted and self._torch_settled

    def show_about(self) -> AboutDialog:
        if self._about is None:
            self._about = AboutDialog(self.environment, self)
        self._about.show()
        self._about.raise_()
        return self._about

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.save_window(self.saveGeometry(), self.saveState())
        if self.loader.isRunning():
            self.statusBar().showMessage("Finishing the PyTorch import before closing…")
            self.loader.wait()
        for panel in self.panels.values():
            if hasattr(panel, "shutdown"):
                panel.shutdown()
        super().closeEvent(event)
        self.closed.emit()
