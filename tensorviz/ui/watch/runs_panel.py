"""The Runs area: follows a run folder live — the user's loop in this process, in another, or a
run that has ended — and shows its gradient heatmap, loss, update ratios and histograms.

The toolbar opens a run folder (or one beside it), picks the rank, overlays a second run's loss
and holds the step controls (`set_step_controls`: the Pause / Step / Continue / Run-to bar
made for the followed folder). A RunFollower reads the folder on its own thread; its updates are
added to a FollowedRun here, and the views are redrawn at most every REDRAW_MS.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.watch.run_reader import NotARunFolderError, read_run_file
from tensorviz.core.watch.run_state import RunState, run_state
from tensorviz.core.watch.run_updates import FollowedRank, FollowedRun, RunUpdate
from tensorviz.ui.watch.diagnoses_banner import DiagnosesBanner
from tensorviz.ui.watch.gradient_heatmap import GradientHeatmap
from tensorviz.ui.watch.histogram_views import HistogramViews
from tensorviz.ui.watch.run_choices import fill_combo, run_folders_beside
from tensorviz.ui.watch.run_follower import RunFollower
from tensorviz.ui.watch.run_plots import LossPlot, RatioPlot
from tensorviz.ui.watch.run_status_texts import status_text
from tensorviz.ui.widgets.retranslating import Retranslating

REDRAW_MS = 60  # one part of the views per tick, however fast the run writes
PARTS = ("heatmap", "curves", "side")  # drawn in turn while following (see redraw)
STATUS_MS = 2000  # how often a live run's "no new step for N s" is looked at again


class RunsPanel(Retranslating, QWidget):
    status_message = Signal(str)
    run_opened = Signal(str)  # the folder now followed (for the step controls)
    redrawn = Signal()  # the views show what has arrived (tests, benchmarks)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.folder: Path | None = None
        self.run = FollowedRun()
        self.compared: FollowedRun | None = None
        self.compared_folder: Path | None = None
        self.rank = 0
        self.selected: list[str] = []  # parameters whose ratios and histograms are drawn
        self.state: RunState | None = None
        self.message = ""  # the last one-sentence problem (a folder that is no run)
        self.follower = RunFollower(self)
        self.follower.run_updated.connect(self._on_run_updated)
        self.follower.follow_failed.connect(self._show_problem)
        self.compare_follower = RunFollower(self, "tensorviz-runs-compare")
        self.compare_follower.run_updated.connect(self._on_compared_updated)
        self.compare_follower.follow_failed.connect(self._show_problem)
        self._redraw_timer = QTimer(self)
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.timeout.connect(self._draw_next_part)
        self._dirty: set[str] = set()
        self._turn = 0
        self._status_timer = QTimer(self)
        self._status_timer.timeout.connect(self._show_status)
        self._build()
        self.retranslate()

    # --- construction --------------------------------------------------------------------------

    def _build(self) -> None:
        self.open_button = QPushButton()
        self.open_button.clicked.connect(self.open_dialog)
        self.siblings = QComboBox()
        self.siblings.setMinimumContentsLength(12)
        self.siblings.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.siblings.activated.connect(self._on_sibling_chosen)
        self.rank_choice = QComboBox()
        self.rank_choice.currentIndexChanged.connect(self._on_rank_chosen)
        self.rank_choice.hide()
        self.series_choice = QComboBox()
        self.series_choice.currentIndexChanged.connect(self._on_series_chosen)
        self.compare_button = QPushButton()
        self.compare_button.clicked.connect(self.compare_dialog)
        self.uncompare_button = QPushButton()
        self.uncompare_button.clicked.connect(self.clear_comparison)
        self.uncompare_button.hide()
        self.step_controls = QHBoxLayout()  # set_step_controls puts a widget here
        self.step_controls.setContentsMargins(0, 0, 0, 0)
        toolbar = QHBoxLayout()
        toolbar.setContentsMargins(6, 6, 6, 0)
        toolbar.setSpacing(6)
        for widget in (self.open_button, self.siblings, self.rank_choice, self.series_choice,
                       self.compare_button, self.uncompare_button):  # fmt: skip
            toolbar.addWidget(widget)
        toolbar.addStretch(1)
        toolbar.addLayout(self.step_controls)

        self.status = QLabel()
        self.status.setObjectName("sectionTitle")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.problems = QLabel()
        self.problems.setObjectName("errorText")
        self.problems.setTextFormat(Qt.TextFormat.PlainText)
        self.problems.setWordWrap(True)
        self.problems.hide()
        status_line = QHBoxLayout()
        status_line.setContentsMargins(8, 2, 8, 2)
        status_line.addWidget(self.status, 2)
        status_line.addWidget(self.problems, 3)

        self.banner = DiagnosesBanner()
        self.banner.diagnosis_chosen.connect(self.show_diagnosis)
        self.heatmap = GradientHeatmap()
        self.heatmap.layer_selected.connect(self.select_layer)
        self.loss_plot = LossPlot()
        self.ratio_plot = RatioPlot()
        self.histograms = HistogramViews()
        left = QWidget()
        left_column = QVBoxLayout(left)
        left_column.setContentsMargins(0, 0, 0, 0)
        left_column.addWidget(self.banner)
        left_column.addWidget(self.heatmap, 1)
        right = QSplitter(Qt.Orientation.Vertical)
        for widget in (self.loss_plot, self.ratio_plot, self.histograms):
            right.addWidget(widget)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([600, 400])  # the heatmap first: it is what the area is for
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 6, 6)
        layout.setSpacing(4)
        layout.addLayout(toolbar)
        layout.addLayout(status_line)
        layout.addWidget(self.splitter, 1)

    def set_step_controls(self, widget: QWidget | None) -> None:
        """Put `widget` (the step controls for the followed folder: StepControlBar) at the
        toolbar's end, in place of the one there before (which is deleted)."""
        while self.step_controls.count():
            old = self.step_controls.takeAt(0).widget()
            if old is not None:
                if hasattr(old, "shutdown"):  # (its own timers or files, stopped first)
                    old.shutdown()
                old.hide()
                old.deleteLater()
        if widget is not None:
            self.step_controls.addWidget(widget)

    def retranslate(self) -> None:
        self.open_button.setText(self.tr("Open Run Folder…"))
        self.open_button.setToolTip(
            self.tr("A folder that tensorviz.watch() or `tensorviz watch` writes (runs/…)")
        )
        self.siblings.setToolTip(self.tr("Other runs in the same folder, newest first"))
        self.rank_choice.setToolTip(self.tr("The rank whose heatmap, ratios and histograms show"))
        self.series_choice.setToolTip(self.tr("The loss, or a scalar the loop logged"))
        self.compare_button.setText(self.tr("Compare with…"))
        self.compare_button.setToolTip(self.tr("Overlay a second run's curve on this one's"))
        self.uncompare_button.setText(self.tr("Stop comparing"))
        self._fill_choices()
        self._show_status()

    # --- opening ---------------------------------------------------------------------------------

    def open_run(self, folder: str | Path) -> bool:
        """Follow `folder`; a folder that is no run is one sentence and changes nothing."""
        folder = Path(folder).expanduser()
        try:
            read_run_file(folder)
        except NotARunFolderError as error:
            self._show_problem(str(error))
            return False
        self.folder = folder.resolve()
        self.run = FollowedRun()
        self.rank, self.selected, self.message = 0, [], ""
        self.loss_plot.clear()
        if self.compared is not None:
            self.loss_plot.show_compared(self._compared_rank(), self.compared_folder.name)
        self.heatmap.show_rank(None)
        self.heatmap.show_whole_run()
        self.banner.show_diagnoses([])
        self.follower.follow(self.folder)
        self._status_timer.start(STATUS_MS)
        self._fill_siblings()
        self._fill_choices()
        self.redraw()
        self.run_opened.emit(str(self.folder))
        return True

    def open_dialog(self) -> None:
        start = str(self.folder.parent) if self.folder else str(Path.cwd() / "runs")
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a run folder"), start)
        if folder:
            self.open_run(folder)

    def compare_with(self, folder: str | Path) -> bool:
        folder = Path(folder).expanduser()
        try:
            read_run_file(folder)
        except NotARunFolderError as error:
            self._show_problem(str(error))
            return False
        self.compared_folder = folder.resolve()
        self.compared = FollowedRun()
        self.compare_follower.follow(self.compared_folder)
        self.uncompare_button.show()
        return True

    def compare_dialog(self) -> None:
        start = str(self.folder.parent) if self.folder else str(Path.cwd())
        folder = QFileDialog.getExistingDirectory(self, self.tr("Compare with a run folder"), start)
        if folder:
            self.compare_with(folder)

    def clear_comparison(self) -> None:
        self.compare_follower.stop()
        self.compared = self.compared_folder = None
        self.loss_plot.show_compared(None)
        self.uncompare_button.hide()

    def _fill_siblings(self) -> None:
        beside = run_folders_beside(self.folder) if self.folder is not None else []
        fill_combo(self.siblings, [(p.name, str(p)) for p in beside], str(self.folder), True)

    def _on_sibling_chosen(self, index: int) -> None:
        path = self.siblings.itemData(index)
        if path and Path(path) != self.folder:
            self.open_run(path)

    # --- following ----------------------------------------------------------------------------

    def _on_run_updated(self, update: RunUpdate) -> None:
        self.run.apply(update)
        self._mark_dirty()

    def _on_compared_updated(self, update: RunUpdate) -> None:
        if self.compared is not None:
            self.compared.apply(update)
            self._mark_dirty()

    def _show_problem(self, message: str) -> None:
        self.message = message
        self.status_message.emit(message)
        self._show_problems()

    def current_rank(self) -> FollowedRank | None:
        return self.run.ranks.get(self.rank) or next(iter(self.run.ranks.values()), None)

    def _compared_rank(self) -> FollowedRank | None:
        if self.compared is None:
            return None
        return self.compared.ranks.get(0) or next(iter(self.compared.ranks.values()), None)

    def redraw(self, parts: tuple[str, ...] = PARTS) -> None:
        """The views of `parts` (default: all) from what has arrived. While a run is followed,
        one part is drawn per REDRAW_MS tick in turn, so each tick's paint stays short."""
        rank = self.current_rank()
        if rank is not None and not self.selected and rank.param_names:
            self.selected = [rank.param_names[0]]
        if "heatmap" in parts:
            self.heatmap.show_rank(rank)
        if "curves" in parts:
            self.loss_plot.show_ranks(list(self.run.ranks.values()))
            if self.compared is not None and self.compared_folder is not None:
                self.loss_plot.show_compared(self._compared_rank(), self.compared_folder.name)
            self.ratio_plot.show_ratios(rank, self.selected)
        if "side" in parts:
            self.histograms.show_layer(rank, self.selected[0] if self.selected else "")
            self.banner.show_diagnoses(self.run.diagnoses)
            self._fill_choices()
            self._show_status()
        self._dirty.difference_update(parts)
        if not self._dirty:
            self.redrawn.emit()

    def _draw_next_part(self) -> None:
        """The throttle timer's tick: the next part that has news, then the timer again."""
        for _turn in range(len(PARTS)):
            part = PARTS[self._turn]
            self._turn = (self._turn + 1) % len(PARTS)
            if part in self._dirty:
                self.redraw((part,))
                break
        if self._dirty:
            self._redraw_timer.start(REDRAW_MS)

    def _mark_dirty(self) -> None:
        self._dirty.update(PARTS)
        if not self._redraw_timer.isActive():
            self._redraw_timer.start(REDRAW_MS)

    def _show_status(self) -> None:
        if not hasattr(self, "status"):
            return
        if self.folder is None:
            self.state = None
            self.status.setText(self.tr("No run open · File → Open Run Folder…, or "
                                        "`tensorviz RUN_FOLDER`"))  # fmt: skip
            self._show_problems()
            return
        rank = self.current_rank()
        last_step, last_time = rank.last_step if rank is not None else (0, 0.0)
        self.state = run_state(rank.ended if rank else None, last_step, last_time, time.time())
        dropped = max((r.dropped for r in self.run.ranks.values()), default=0)
        name = self.folder.name
        self.status.setText(f"{name} · {status_text(self.state, len(self.run.ranks), dropped)}")
        if self.run.ended:
            self._status_timer.stop()
        self._show_problems()

    def _show_problems(self) -> None:
        sentences = list(self.run.problems) + ([self.message] if self.message else [])
        self.problems.setText(" ".join(sentences))
        self.problems.setVisible(bool(sentences))

    # --- choices -------------------------------------------------------------------------------

    def _fill_choices(self) -> None:
        ranks = sorted(self.run.ranks)
        shown = self.tr("rank %1")
        fill_combo(self.rank_choice, [(shown.replace("%1", str(r)), r) for r in ranks], self.rank)
        self.rank_choice.setVisible(len(ranks) > 1)
        rank = self.current_rank()
        series = [(self.tr("loss"), "loss")]
        series += [(name, name) for name in (rank.scalar_names if rank is not None else [])]
        fill_combo(self.series_choice, series, self.loss_plot.series)

    def _on_rank_chosen(self, index: int) -> None:
        rank = self.rank_choice.itemData(index)
        if rank is not None:
            self.rank = int(rank)
            self.redraw()

    def _on_series_chosen(self, index: int) -> None:
        series = self.series_choice.itemData(index)
        if series:
            self.loss_plot.series = series
            self.redraw()

    # --- selection ---------------------------------------------------------------------------

    def select_layer(self, name: str, add: bool = False) -> None:
        """Draw `name`'s update ratio and histograms (Ctrl+click adds it to those drawn)."""
        add = add or bool(QApplication.keyboardModifiers() & Qt.KeyboardModifier.ControlModifier)
        if add and name not in self.selected:
            self.selected = [name, *self.selected]
        elif not add:
            self.selected = [name]
        rank = self.current_rank()
        self.ratio_plot.show_ratios(rank, self.selected)
        self.histograms.show_layer(rank, name)

    def show_diagnosis(self, diagnosis) -> bool:
        """Jump the heatmap to the diagnosis' step and (first) layer, and select that layer."""
        names = list(getattr(diagnosis, "names", []) or [])
        rank = self.current_rank()
        if rank is None:
            return False
        row = getattr(diagnosis, "row", None)
        if row is None or row < 0:
            step = int(getattr(diagnosis, "step", 0) or 0)
            matches = (rank.steps == step).nonzero()[0]
            row = int(matches[0]) if len(matches) else 0
        name = next((n for n in names if n in rank.param_names), None)
        if name is None:  # a module's diagnosis: its first parameter
            name = next((p for n in names for p in rank.param_names
                         if rank.param_modules.get(p) == n), None)  # fmt: skip
        if name is None:
            return False
        self.select_layer(name)
        return self.heatmap.focus(int(row), name)

    # --- closing -------------------------------------------------------------------------------

    def shutdown(self) -> bool:
        """Stop following (the reader threads joined); False if one did not stop in time."""
        self._redraw_timer.stop()
        self._status_timer.stop()
        self.set_step_controls(None)
        return self.follower.stop() & self.compare_follower.stop()
