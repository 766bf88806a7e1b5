"""`make screenshots`: render each area of the real main window to docs/screenshots/*.png.

Uses the app's own widgets, offscreen, with settings in a temporary folder so a developer's own
window geometry and recent files never leak into the pictures.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication

from tensorviz.resource_files import resource_path
from tensorviz.ui.window.app_settings import AppSettings
from tensorviz.ui.window.areas import AREAS
from tensorviz.ui.window.main_window import MainWindow
from tensorviz.ui.workbench.action_forms import select_data

WINDOW_SIZE = (1280, 800)


def _wait_until_ready(window: MainWindow, timeout_ms: int = 60_000) -> None:
    if window.is_ready():
        return
    loop = QEventLoop()
    window.ready.connect(loop.quit)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()


def _stage_view_error(workbench) -> None:
    """The classic: x.transpose(0, 1).view(-1) — torch refuses, the app explains."""
    form = workbench.operate_form
    select_data(form.kind, "view")
    form.set_input("x_t")
    form.params.set_values({"shape": "-1"})
    form.submit()


def _stage_layout(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """x, its transpose x_t and an expanded column x_e on one strip; then broadcasting."""
    from tensorviz.core.tensors.workbench_actions import apply_operation

    workspace = window.context.workspace
    apply_operation(workspace, "index", "x", {"index": "..., :1"}, name="x_col")
    apply_operation(workspace, "expand", "x_col", {"shape": "2, 3, 4"}, name="x_e")
    panel = window.panel("layout")
    window.show_area("layout")
    panel.show_tensor("x_e")
    panel.hover_element((1, 2, 3))
    panel.select_cell(16)
    panel.try_in_place_write()
    app.processEvents()
    written = [out_dir / "layout.png", out_dir / "layout_broadcast.png"]
    window.grab().save(str(written[0]))
    panel.tabs.setCurrentWidget(panel.broadcasting)
    panel.broadcasting.example_buttons["silent: [3, 1] with [4]"].click()
    app.processEvents()
    window.grab().save(str(written[1]))
    panel.tabs.setCurrentIndex(0)
    return written


def _wait_for(condition, timeout_ms: int = 30_000) -> None:
    loop = QEventLoop()
    poll = QTimer()
    poll.timeout.connect(lambda: condition() and loop.quit())
    poll.start(10)
    QTimer.singleShot(timeout_ms, loop.quit)
    if not condition():
        loop.exec()
    poll.stop()


def _stage_training(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """The reference experiment paused mid-training, one phase stepped into the next epoch."""
    panel = window.panel("training").regression
    window.show_area("training")
    _wait_for(lambda: panel.state == "ready")
    panel.bar.speed.setValue(4)  # 100 epochs / s
    panel.bar.log_scale.setChecked(True)
    panel.play()
    _wait_for(lambda: bool(panel.history) and panel.history[-1].epoch >= 150)
    panel.pause()
    _wait_for(lambda: panel.history[-1].epoch == panel.worker.trainer.epoch)
    for phase in ("forward", "loss", "backward"):
        panel.step_phase()
        _wait_for(lambda p=phase: panel.phase_view.current == p)
    app.processEvents()
    path = out_dir / "training.png"
    window.grab().save(str(path))
    return [path]


def _stage_playground(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """Circles learned by a 2-8-8-1 tanh network, paused in the backward phase; then eight
    sigmoid layers on the spirals, whose gradients vanish."""
    area = window.panel("training")
    window.show_area("training")
    area.show_task("circles")
    panel = area.playground
    _wait_for(lambda: panel.state == "ready" and panel.frame is not None)
    panel.play()
    _wait_for(lambda: bool(panel.history) and panel.history[-1].epoch >= 60, 120_000)
    panel.pause()
    _wait_for(lambda: panel.history[-1].epoch == panel.worker.trainer.epoch)
    for phase in ("forward", "loss", "backward"):
        panel.step_phase()
        _wait_for(lambda p=phase: panel.phase_view.current == p)
    _wait_for(lambda: panel.frame is not None and panel.frame.epoch == panel.history[-1].epoch)
    app.processEvents()
    written = [out_dir / "training_playground.png", out_dir / "training_vanishing.png"]
    window.grab().save(str(written[0]))
    area.show_task("spirals")
    config = panel.form.config().with_changes(
        hidden_layers=(8,) * 8, activations=("sigmoid",) * 8, epochs=40
    )
    area.set_config(config)
    _wait_for(lambda: panel.state == "ready")
    panel.play()
    _wait_for(lambda: panel.state == "finished", 120_000)
    _wait_for(lambda: panel.frame is not None and panel.frame.epoch == 40)
    panel.tabs.setCurrentWidget(panel.script_view)
    app.processEvents()
    window.grab().save(str(written[1]))
    area.show_task("linear")
    return written


def _stage_graph(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """The linear-regression loss, backward recorded and stepped halfway through."""
    panel = window.panel("graph")
    window.show_area("graph")
    panel.show_preset("regression")
    panel.run_backward()
    for _ in range(5):
        panel.step_forward()
    app.processEvents()
    path = out_dir / "graph.png"
    window.grab().save(str(path))
    return [path]


def _stage_files(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """A small checkpoint: a state dict with tied weights, optimizer settings and a saved view."""
    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Embedding(100, 16), torch.nn.LayerNorm(16), torch.nn.Linear(16, 100)
    )
    model[2].weight = model[0].weight  # tied input and output embeddings
    history = torch.randn(1000)
    checkpoint = {
        "model": model.state_dict(),
        "optimizer": {"lr": 0.001, "betas": (0.9, 0.999), "step": 1200},
        "last_losses": history[-10:],  # a view: torch.save writes all 1000 values
        "epoch": 12,
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "checkpoint.pt"
        torch.save(checkpoint, path)
        panel = window.panel("files")
        window.open_paths([str(path)])
        _wait_for(lambda: not panel.is_busy() and panel.model.inspection is not None)
        panel.select_entry("['model']['2.weight']")
        app.processEvents()
        shot = out_dir / "files.png"
        window.grab().save(str(shot))
    return [shot]


def _stage_script(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """The autograd example run in the Script area, then the graph of the loss it made."""
    panel = window.panel("script")
    window.show_area("script")
    panel.load_example("06_autograd")
    panel.run_script()
    _wait_for(lambda: not panel.is_running())
    panel.captured.select("loss")
    app.processEvents()
    written = [out_dir / "script.png", out_dir / "script_graph.png"]
    window.grab().save(str(written[0]))
    panel.captured.graph_button.click()
    graph = window.panel("graph")
    _wait_for(lambda: graph.layout_result is not None)
    app.processEvents()
    window.grab().save(str(written[1]))
    return written


def take_screenshots(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    app.setStyleSheet(resource_path("themes", "light.qss").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        settings = AppSettings(QSettings(str(Path(tmp) / "settings.ini"), QSettings.IniFormat))
        window = MainWindow(settings)
        window.resize(*WINDOW_SIZE)
        window.show()
        _wait_until_ready(window)
        written = []
        for area in AREAS:
            window.show_area(area.key)
            app.processEvents()
            path = out_dir / f"{area.key}.png"
            window.grab().save(str(path))
            written.append(path)
        path = out_dir / "workbench_error.png"
        _stage_view_error(window.panel("workbench"))
        window.show_area("workbench")
        app.processEvents()
        window.grab().save(str(path))
        written.append(path)
        window.statusBar().clearMessage()  # the next pictures are about other areas
        written += _stage_layout(window, app, out_dir)
        written += _stage_training(window, app, out_dir)
        written += _stage_playground(window, app, out_dir)
        written += _stage_files(window, app, out_dir)
        written += _stage_graph(window, app, out_dir)
        written += _stage_script(window, app, out_dir)  # last: its example rebinds x
        about = window.show_about()
        app.processEvents()
        about.adjustSize()
        path = out_dir / "about.png"
        about.grab().save(str(path))
        written.append(path)
        about.close()
        window.close()
    return written


def main() -> int:
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    for path in take_screenshots(out_dir):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
