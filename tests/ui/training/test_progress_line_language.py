"""The progress line under the transport bar, after some epochs, in Chinese: the loss is named
with the glossary's word (损失), as the step view already does, not left as English "loss"."""

from panel_driving import TIMEOUT
from PySide6.QtCore import QCoreApplication


def test_the_progress_line_names_the_loss_in_chinese(window, qtbot):
    window.show_area("training")
    panel = window.panel("training").regression
    qtbot.waitUntil(lambda: panel.state == "ready", timeout=TIMEOUT)
    window.language_menu.choices["zh_CN"].trigger()
    try:
        # three epochs stepped, not played then paused: a played run can reach its last epoch
        # (500) before the test's wait sees epoch 3, and a finished run does not pause
        for _ in range(3):
            panel.step_epoch()
        qtbot.waitUntil(
            lambda: bool(panel.history) and panel.history[-1].epoch >= 3, timeout=TIMEOUT
        )
        assert panel.state == "paused"
        text = panel.progress.text()
        loss = f"{panel.history[-1].loss:.5g}"
        assert f"损失 {loss}" in text
        assert "loss" not in text
        assert QCoreApplication.translate("RunPanel", "paused") in text
    finally:
        window.language_menu.choices["en"].trigger()
    qtbot.waitUntil(lambda: f"loss {panel.history[-1].loss:.5g}" in panel.progress.text())
