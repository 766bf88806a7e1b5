"""The Training area's linear regression: gradient descent on the reference experiment, live and
step by step. The run's state machine and worker thread are RunPanel's (run_panel.py); this
panel shows the line, the loss surface, w and b, and the gradients both ways.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Signal
from PySide6.QtWidgets import QWidget

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.report import (
    USE_NO_GRAD_KEY,
    ExperimentInfo,
    explain_divergence,
    save_parameters,
    tutorial_table,
    use_no_grad,
    write_history_csv,
)
from tensorviz.core.training.trainer import (
    Remedy,
    StepRecord,
    apply_remedy,
    loss_graph,
    phase_codes,
)
from tensorviz.ui.training.config_form import TrainingConfigForm
from tensorviz.ui.training.panel_layout import lay_out_panel
from tensorviz.ui.training.phase_view import PhaseView
from tensorviz.ui.training.problem_view import ProblemView
from tensorviz.ui.training.run_panel import (  # noqa: F401 — the states, re-exported
    FINISHED,
    LOADING,
    PAUSED,
    READY,
    RUNNING,
    STOPPED,
    RunPanel,
)
from tensorviz.ui.training.step_view import GradientView, ResultsView
from tensorviz.ui.training.training_plots import TrainingPlots
from tensorviz.ui.training.training_worker import TrainingWorker
from tensorviz.ui.training.transport_bar import TransportBar


class TrainingPanel(RunPanel):
    loss_graph_built = Signal(dict)  # name → tensor: w, b, x, y, y_pred, loss at the current step
    _refused_step = QT_TRANSLATE_NOOP("RunPanel", "torch refused the update: %1")

    def __init__(self, devices: list[str] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history: list[StepRecord] = []
        self.info: ExperimentInfo | None = None
        self.form = TrainingConfigForm(devices or ["cpu"])
        self.plots = TrainingPlots()
        self.phase_view = PhaseView()
        self.gradient_view = GradientView()
        self.results_view = ResultsView()
        self.problem_view = ProblemView()
        self._build_controls()
        self._build_layout()
        self._build_shortcuts()
        self._start_worker(TrainingWorker())

    # --- construction ----------------------------------------------------------------------------

    def _build_controls(self) -> None:
        self.bar = TransportBar()
        self._connect_transport()
        self.bar.log_scale.toggled.connect(self.plots.set_log_scale)
        self.bar.smoothing.toggled.connect(self.plots.set_smoothing)
        self.bar.export_requested.connect(self._on_export_requested)
        self.bar.loss_graph_requested.connect(self.show_loss_graph)

    def _build_layout(self) -> None:
        lay_out_panel(self)

    # --- gestures --------------------------------------------------------------------------------

    def _remedied_config(self, key: str) -> TrainingConfig:
        config = self.form.config()
        if key == USE_NO_GRAD_KEY:
            return config.with_changes(update_without_no_grad=False)
        return apply_remedy(config, self.remedies.get(key, key))

    def show_loss_graph(self) -> None:
        """Rebuild the loss at the current w, b (or the initial ones) as a real autograd graph."""
        info = getattr(self, "info", None)
        if info is None:
            self.status_message.emit(self.tr("The experiment is still being prepared"))
            return
        w, b = (self.history[-1].w, self.history[-1].b) if self.history else info.initial
        self.loss_graph_built.emit(loss_graph(info.config, w, b))

    # --- exports ---------------------------------------------------------------------------------

    def export_csv(self, path: str) -> None:
        write_history_csv(path, self.history)

    def export_png(self, path: str) -> None:
        self._save_png(self.plots, path)

    def export_parameters(self, path: str) -> None:
        if self.history:
            save_parameters(path, self.history[-1], self.info.config)

    def _on_export_requested(self, kind: str) -> None:
        title, file_filter, write = {
            "csv": (self.tr("Export loss history"), self.tr("CSV (*.csv)"), self.export_csv),
            "png": (self.tr("Export plots"), self.tr("PNG image (*.png)"), self.export_png),
            "pt": (
                self.tr("Export parameters"),
                self.tr("PyTorch file (*.pt)"),
                self.export_parameters,
            ),
        }[kind]
        if kind != "png" and not self.history:
            self.status_message.emit(
                self.tr("Nothing to export yet: train at least one epoch first")
            )
            return
        self._export_with_dialog(title, f"training.{kind}", file_filter, write)

    # --- hooks ---------------------------------------------------------------------------------

    def _phase_codes(self, config: TrainingConfig) -> dict[str, str]:
        return phase_codes(config)

    def _clear_views(self) -> None:
        self.gradient_view.show_record(None)

    def _show_experiment(self, info: ExperimentInfo) -> None:
        self.plots.set_experiment(info)
        self.results_view.set_experiment(info)

    def _show_records(self, records: list[StepRecord]) -> None:
        self.plots.add_records(records)
        last = records[-1]
        self.gradient_view.show_record(last)
        self.results_view.show_record(last, final=last.epoch >= self.info.config.epochs)
        self.results_view.add_tutorial_lines(tutorial_table(records, self.info.config.epochs))

    def _show_finished(self, last: StepRecord) -> None:
        self.results_view.show_record(last, final=True)

    def _finished_message(self, last: StepRecord) -> str:
        text = self.tr("Training finished: w = %1, b = %2, loss %3")
        return (
            text.replace("%1", f"{last.w:.4f}")
            .replace("%2", f"{last.b:.4f}")
            .replace("%3", f"{last.loss:.4f}")
        )

    def _explain_divergence(self, divergence, last) -> ExplainedError:
        return explain_divergence(divergence, last)

    def _error_remedies(self) -> tuple[Remedy, ...]:
        return (use_no_grad(),)
