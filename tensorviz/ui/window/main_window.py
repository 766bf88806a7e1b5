"""The main window: composes the areas, menus and status bar; holds no feature logic."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QIcon
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QMainWindow,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.files.open_requests import PathProblem, split_openable
from tensorviz.resource_files import resource_path
from tensorviz.ui.widgets.notice_bar import NoticeBar
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.window.about_dialog import AboutDialog
from tensorviz.ui.window.app_settings import AppSettings
from tensorviz.ui.window.appearance import Appearance
from tensorviz.ui.window.areas import AREAS, icon_of, tagline_of, title_of
from tensorviz.ui.window.language import LanguageSwitcher
from tensorviz.ui.window.navigation_list import NavigationList
from tensorviz.ui.window.placeholder_panel import FilesPlaceholderPanel, PlaceholderPanel
from tensorviz.ui.window.status_bar import WindowStatusBar
from tensorviz.ui.window.torch_loader import TorchLoader
from tensorviz.ui.window.window_menus import WindowMenus

OPEN_PATTERNS = "*.pt *.pth *.bin *.ckpt *.tar *.pkl *.safetensors *.npy *.npz *.json .metadata"
CHECKPOINT_FILES = QT_TRANSLATE_NOOP("MainWindow", "Checkpoint files (%1)")
ALL_FILES = QT_TRANSLATE_NOOP("MainWindow", "All files (*)")


def icon(name: str) -> QIcon:
    return QIcon(str(resource_path("icons", name)))


class MainWindow(Retranslating, QMainWindow):
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

        self.setWindowIcon(icon("tensorviz.svg"))
        self.setAcceptDrops(True)
        self._build_areas()
        self._build_status_bar()
        self._build_menus()
        self.retranslate()
        self.appearance.changed.connect(self._on_appearance_changed)
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
            self.navigation.add_area(icon_of(area), area.key, title_of(area), tagline_of(area))
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
        self.status_bar = WindowStatusBar()
        self.setStatusBar(self.status_bar)
        self.torch_status = self.status_bar.torch_status
        self.torch_busy = self.status_bar.torch_busy

    def _build_menus(self) -> None:
        self.menus = WindowMenus(self)
        self.sessions = self.menus.sessions
        for name in ("recent_menu", "examples_menu", "undo_action", "redo_action",
                     "area_actions", "language_menu", "theme_menu", "zoom_menu"):  # fmt: skip
            setattr(self, name, getattr(self.menus, name))

    def retranslate(self) -> None:
        """Every text the window itself shows, in the language in force (View → Language)."""
        self.setWindowTitle("tensorviz")
        for row, area in enumerate(AREAS):
            self.navigation.set_texts(row, title_of(area), tagline_of(area))
        self.menus.retranslate()

    def _on_appearance_changed(self) -> None:
        """Sizes set by hand follow View → Zoom (the stylesheet's and the font follow alone)."""
        self.status_bar.rescale()
        self.navigation.refit()
        for panel in self.panels.values():
            if isinstance(panel, PlaceholderPanel):
                panel.rescale()

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
        self.statusBar().area_changed()
        self.area_actions.actions()[row].setChecked(True)
        self.settings.set_current_area(AREAS[row].key)

    def undo(self) -> None:
        """Edit → Undo: the current area's undo (the workspace's, in the Workbench)."""
        panel = self.panels[self.current_area()]
        if hasattr(panel, "undo"):
            panel.undo()
        else:
            self.statusBar().showMessage(self.tr("Nothing to undo here"), 4000)

    def redo(self) -> None:
        """Edit → Redo: the current area's redo (the workspace's, in the Workbench)."""
        panel = self.panels[self.current_area()]
        if hasattr(panel, "redo"):
            panel.redo()
        else:
            self.statusBar().showMessage(self.tr("Nothing to redo here"), 4000)

    def toggle_full_screen(self) -> None:
        self.showNormal() if self.isFullScreen() else self.showFullScreen()

    # --- opening files ---------------------------------------------------------------------------

    def open_paths(self, paths: list[str]) -> tuple[list[str], list[PathProblem]]:
        """Queue readable files for the Files area; explain every path that cannot be opened.
        Returns the queued paths and the problems. Session files open as sessions, run
        folders in the Runs area."""
        from tensorviz.ui.watch.run_links import open_run_folder, take_run_folders

        runs, paths = take_run_folders(paths)
        for folder in runs[-1:]:  # (the area follows one run at a time: the last named)
            open_run_folder(self, folder)
        if runs and not paths:
            return [], []
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
            count = len(good)
            queued = QCoreApplication.translate(
                "MainWindow", "Queued %n file(s) for the Files area", "", count
            )
            self.statusBar().showMessage(queued, 5_000)
            self.files_queued.emit(good)
        return good, problems

    def open_dialog(self) -> None:
        recent = self.settings.recent_files()
        start = str(Path(recent[0]).parent) if recent else str(Path.home())
        filters = f"{self.tr(CHECKPOINT_FILES).replace('%1', OPEN_PATTERNS)};;{self.tr(ALL_FILES)}"
        title = self.tr("Open tensor files")
        paths, _filter = QFileDialog.getOpenFileNames(self, title, start, filters)
        if paths:
            self.open_paths(paths)

    def compare_checkpoints(self) -> None:
        """File → Compare…: the Compare area (built once torch has loaded)."""
        if self.context is None:
            self.statusBar().showMessage(
                self.tr("PyTorch is still loading; Compare opens once it is in.")
            )
            return
        from tensorviz.ui.diff.compare_links import compare_from_menu

        compare_from_menu(self)

    def open_folder_dialog(self) -> None:
        recent = self.settings.recent_files()
        start = str(Path(recent[0]).parent) if recent else str(Path.home())
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a checkpoint folder"), start)
        if folder:
            self.open_paths([folder])

    def open_run_dialog(self) -> None:
        from tensorviz.ui.watch.run_links import open_run_dialog

        open_run_dialog(self)

    def _rebuild_recent_menu(self) -> None:  # (what File → Open Recent's aboutToShow does)
        self.menus.rebuild_recent_menu()

    def _rebuild_examples_menu(self) -> None:  # (what File → Example Scripts' aboutToShow does)
        self.menus.rebuild_examples_menu()

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
        self.status_bar.set_report(report)
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
        self.status_bar.set_torch_failed()
        self.notice_bar.show_messages([message])
        self._settle_torch()

    def _settle_torch(self) -> None:
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
            self.statusBar().showMessage(self.tr("Finishing the PyTorch import before closing…"))
            self.loader.wait()
        for panel in self.panels.values():
            if hasattr(panel, "shutdown"):
                panel.shutdown()
        super().closeEvent(event)
        self.closed.emit()
