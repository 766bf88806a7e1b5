"""`make screenshots`: render each area of the real main window to docs/screenshots/*.png, in
English and the light theme, and the same tour again in Chinese (docs/screenshots/zh_CN/) and
in the dark theme (docs/screenshots/dark/); each tour also shows every area at 200 % zoom
(zoom200/), where nothing may overlap or be clipped on a 1280×800 window.

Uses the app's own widgets, offscreen, with settings in a temporary folder so a developer's own
window geometry, language and recent files never leak into the pictures. Each variant runs in
a process of its own (the language, theme and the areas' caches are process-wide).

    python -m tensorviz.ui.window.screenshot_tour docs/screenshots            # all three
    python -m tensorviz.ui.window.screenshot_tour docs/screenshots --only zh_CN
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication

from tensorviz.ui.window.app_settings import AppSettings
from tensorviz.ui.window.areas import AREAS
from tensorviz.ui.window.main_window import MainWindow
from tensorviz.ui.workbench.action_forms import select_data

WINDOW_SIZE = (1280, 800)
ZOOM_CHECK = 2.0  # the projector's zoom every area is also shown at
# variant → (language, theme, folder under the output folder)
VARIANTS = {
    "en": ("en", "light", ""),
    "zh_CN": ("zh_CN", "light", "zh_CN"),
    "dark": ("en", "dark", "dark"),
}


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


def _stage_explain(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """gather's picture (which element each index picks), then the device lesson on meta."""
    from tensorviz.core.tensors.creation import CreationOptions
    from tensorviz.core.tensors.workbench_actions import create_tensor

    workspace, workbench = window.context.workspace, window.panel("workbench")
    scores = "[[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6], [0.9, 0.05, 0.05]]"
    create_tensor(workspace, "tensor", {"data": scores}, CreationOptions(), name="scores")
    create_tensor(workspace, "tensor", {"data": "[[1], [0], [2], [0]]"}, CreationOptions(), "picks")
    form = workbench.operate_form
    select_data(form.kind, "gather")
    form.set_input("scores")
    form.params.set_values({"dim": "1", "index": "picks"})
    form.submit()
    workbench.index_picture.grids.select("index", 2, 0)
    window.show_area("workbench")
    _settle(app)
    written = [out_dir / "workbench_gather.png", out_dir / "workbench_device.png"]
    window.grab().save(str(written[0]))
    create_tensor(workspace, "device lesson: ones(2, 3, 4) on meta", {}, CreationOptions(), "m")
    select_data(form.kind, "add")
    form.set_input("m")
    form.params.set_values({"other": "x"})
    form.submit()
    _settle(app)
    window.grab().save(str(written[1]))
    workbench.error_panel.clear()
    window.statusBar().clearMessage()
    return written


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
    _settle(app)
    written = [out_dir / "layout.png", out_dir / "layout_broadcast.png"]
    window.grab().save(str(written[0]))
    panel.tabs.setCurrentWidget(panel.broadcasting)
    panel.broadcasting.example_buttons["silent: [3, 1] with [4]"].click()
    _settle(app)
    window.grab().save(str(written[1]))
    panel.tabs.setCurrentIndex(0)
    return written


def _settle(app: QApplication, rounds: int = 4) -> None:
    """Let layouts finish before a grab: a text shown or a zoom applied posts layout requests
    that nest (a card inside a scroll area inside a splitter), one round of events each; one
    round left a card squeezed below its labels' height in the picture."""
    for _round in range(rounds):
        app.sendPostedEvents()
        app.processEvents()


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
    _settle(app)
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
    _settle(app)
    path = out_dir / "graph.png"
    window.grab().save(str(path))
    return [path]


def _stage_architecture(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """The TransformerEncoder preset folded (Layer × 4), then a 70B Llama shape on meta."""
    panel = window.panel("architecture")
    window.show_area("architecture")
    written = [out_dir / "architecture.png", out_dir / "architecture_meta.png"]
    _wait_for(lambda: panel.current is not None, 120_000)
    panel.select_item(next(iter(panel.current.architecture.record.calls)))
    _settle(app)
    window.grab().save(str(written[0]))
    panel.show_subject("preset:llama70b")
    _wait_for(lambda: panel.current is not None, 300_000)
    _settle(app)
    window.grab().save(str(written[1]))
    return written


def _stage_files(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    from tensorviz.ui.files.screenshot_stage import stage_files

    return stage_files(window, app, out_dir, _wait_for)


def _stage_script(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """The autograd example run in the Script area, then the graph of the loss it made."""
    panel = window.panel("script")
    window.show_area("script")
    panel.load_example("06_autograd")
    panel.run_script()
    _wait_for(lambda: not panel.is_running())
    panel.captured.select("loss")
    _settle(app)
    written = [out_dir / "script.png", out_dir / "script_graph.png"]
    window.grab().save(str(written[0]))
    panel.captured.graph_button.click()
    graph = window.panel("graph")
    _wait_for(lambda: graph.layout_result is not None)
    _settle(app)
    window.grab().save(str(written[1]))
    return written


LEARNER_FAILING = """\
def demo():
    images = torch.rand(2, 3, 4)
    channels_last = images.permute(0, 2, 1)
    flat = channels_last.view(2, -1)  # refused: permute made it non-contiguous
    return flat

w = torch.tensor(2.0, requires_grad=True)
features = demo()
"""

LEARNER_BACKWARD = """\
x = torch.tensor(2.0, requires_grad=True)
y = x**2 + 3 * x
y.backward()
print(x.grad)
"""


def _stage_learner(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """A failed run still explorable (what existed before the error, a function's tensors),
    then the learner's own backward, stepped to the node whose local derivative it explains."""
    panel = window.panel("script")
    window.show_area("script")
    written = [out_dir / "script_failed.png", out_dir / "graph_script_backward.png"]
    for source, shot in ((LEARNER_FAILING, written[0]), (LEARNER_BACKWARD, None)):
        panel.set_text(source)
        panel.run_script()
        _wait_for(lambda: not panel.is_running())
        _settle(app)
        if shot is not None:
            panel.captured.select("demo_channels_last")
            _settle(app)
            window.grab().save(str(shot))
    panel.captured.select("y")
    panel.captured.graph_button.click()
    graph = window.panel("graph")
    _wait_for(lambda: graph.layout_result is not None)
    for _ in range(3):  # torch's order: AddBackward0, MulBackward0, PowBackward0 (2·x = 4)
        graph.step_forward()
    _settle(app)
    window.grab().save(str(written[1]))
    return written


def _stage_zoom(window: MainWindow, app: QApplication, out_dir: Path) -> list[Path]:
    """Every area at ZOOM_CHECK on the same window size: what a projector shows."""
    folder = out_dir / f"zoom{round(ZOOM_CHECK * 100)}"
    folder.mkdir(exist_ok=True)
    window.appearance.apply(zoom=ZOOM_CHECK)
    written = []
    for area in AREAS:
        window.show_area(area.key)
        _settle(app)
        written.append(folder / f"{area.key}.png")
        window.grab().save(str(written[-1]))
    window.appearance.apply(zoom=1.0)
    return written


def take_screenshots(out_dir: Path, language: str = "en", theme: str = "light") -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        settings = AppSettings(QSettings(str(Path(tmp) / "settings.ini"), QSettings.IniFormat))
        settings.set_language(language)
        settings.set_theme(theme)
        settings.set_zoom(1.0)
        window = MainWindow(settings)
        window.resize(*WINDOW_SIZE)
        window.show()
        _wait_until_ready(window)
        written = []
        for area in AREAS:
            window.show_area(area.key)
            _settle(app)
            path = out_dir / f"{area.key}.png"
            window.grab().save(str(path))
            written.append(path)
        path = out_dir / "workbench_error.png"
        _stage_view_error(window.panel("workbench"))
        window.show_area("workbench")
        _settle(app)
        window.grab().save(str(path))
        written.append(path)
        window.statusBar().clearMessage()  # the next pictures are about other areas
        written += _stage_explain(window, app, out_dir)
        written += _stage_layout(window, app, out_dir)
        written += _stage_training(window, app, out_dir)
        written += _stage_playground(window, app, out_dir)
        from tensorviz.ui.watch.screenshot_stage import stage_runs

        written += stage_runs(window, app, out_dir, _wait_for)
        written += _stage_files(window, app, out_dir)
        from tensorviz.ui.diff.compare_staging import stage_compare

        written += stage_compare(window, app, out_dir, _wait_for)
        written += _stage_graph(window, app, out_dir)
        written += _stage_architecture(window, app, out_dir)
        written += _stage_script(window, app, out_dir)  # late: its example rebinds x
        written += _stage_learner(window, app, out_dir)
        written += _stage_zoom(window, app, out_dir)
        about = window.show_about()
        _settle(app)
        about.adjustSize()
        path = out_dir / "about.png"
        about.grab().save(str(path))
        written.append(path)
        about.close()
        window.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Render the screenshot tour.")
    parser.add_argument("out_dir", nargs="?", default="docs/screenshots")
    parser.add_argument("--only", choices=tuple(VARIANTS), help="one variant, in this process")
    args = parser.parse_args(argv)
    out_dir = Path(args.out_dir)
    if args.only:
        language, theme, folder = VARIANTS[args.only]
        for path in take_screenshots(out_dir / folder, language, theme):
            print(path, flush=True)
        return 0
    for variant in VARIANTS:  # one process each, one after the other
        command = [sys.executable, "-m", "tensorviz.ui.window.screenshot_tour", str(out_dir)]
        status = subprocess.run([*command, "--only", variant], check=False).returncode
        if status:
            print(f"screenshot tour {variant}: exit status {status}", file=sys.stderr)
            return status
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
