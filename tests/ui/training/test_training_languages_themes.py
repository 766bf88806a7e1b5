"""The Training area in Chinese, in the dark theme and at 200 %: a language switch retranslates
the open area (regression and playground), no English is left in its own widgets, torch's words
stay verbatim in a refused step, and the plots, phases and network pictures follow the theme."""

import sys
from pathlib import Path

import numpy as np
import pytest
from panel_driving import TIMEOUT
from PySide6.QtCore import QCoreApplication

from tensorviz.ui.training.network_frames import theme_colour_tables
from tensorviz.ui.widgets.theme import DARK, LIGHT

sys.path.insert(0, str(Path(__file__).parents[1] / "window"))
from test_every_text_translated import leftover_english, visible_texts  # noqa: E402


def _tr(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


@pytest.fixture
def area(window, qtbot):
    window.show_area("training")
    area = window.panel("training")
    qtbot.waitUntil(lambda: area.regression.state == "ready", timeout=TIMEOUT)
    yield area
    window.language_menu.choices["en"].trigger()
    window.appearance.apply(theme_choice="light", zoom=1.0)


def _playground(area, qtbot):
    area.show_task("circles")
    qtbot.waitUntil(lambda: area.playground.state == "ready", timeout=TIMEOUT)
    qtbot.waitUntil(lambda: area.playground.frame is not None, timeout=TIMEOUT)
    return area.playground


def _english_left(root) -> list[str]:
    """Texts with English words in `root`, except the shared error panel's (the window unit's
    widget, translated there)."""
    shared = set()
    for panel in root.findChildren(type(root.window().panel("training").regression.problem_view)):
        shared |= set(visible_texts(panel.error_panel))
    return [
        f"{where}: {text!r}"
        for where, text in visible_texts(root)
        if (where, text) not in shared and leftover_english(text)
    ]


def test_a_language_switch_retranslates_the_open_regression_and_playground(window, area, qtbot):
    regression = area.regression
    playground = _playground(area, qtbot)
    assert playground.bar.epoch_button.text() == "Step epoch"
    window.language_menu.choices["zh_CN"].trigger()
    step_epoch = _tr("TransportBar", "Step epoch")
    assert step_epoch != "Step epoch"  # the catalogue has it
    qtbot.waitUntil(lambda: regression.bar.epoch_button.text() == step_epoch)  # (posted event)
    for panel in (regression, playground):
        assert panel.bar.epoch_button.text() == step_epoch
        assert panel.form.row_labels["lr"].text() == _tr(type(panel.form).__name__, "Learning rate")
    assert playground.tabs.tabText(1) == _tr("PlaygroundPanel", "Code")
    assert area.task.itemText(area.task.findData("circles")) == "圆环"  # core's name, gettext
    loss_title = regression.plots.loss_plot.getPlotItem().titleLabel.text
    assert _tr("TrainingPlots", "Loss per epoch (MSE)") in loss_title
    assert "第 0 / 300 轮" in playground.progress.text()  # the progress line, recomputed
    for panel in (regression, playground):  # experiments made after the switch: in Chinese
        panel.reset()
        qtbot.waitUntil(lambda p=panel: p.state == "ready", timeout=TIMEOUT)
    assert _english_left(area) == []
    window.language_menu.choices["en"].trigger()
    qtbot.waitUntil(lambda: regression.bar.epoch_button.text() == "Step epoch")
    assert playground.tabs.tabText(1) == "Code"
    assert "Loss per epoch (MSE)" in regression.plots.loss_plot.getPlotItem().titleLabel.text


def test_torch_refusing_the_update_is_quoted_verbatim_in_a_chinese_status_line(window, area, qtbot):
    window.language_menu.choices["zh_CN"].trigger()
    panel = area.regression
    qtbot.waitUntil(lambda: panel.bar.reset_button.text() == _tr("TransportBar", "Reset"))
    messages = []
    panel.status_message.connect(messages.append)
    panel.form.no_grad_pitfall.setChecked(True)
    qtbot.waitUntil(lambda: panel.state == "ready", timeout=TIMEOUT)
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "stopped", timeout=TIMEOUT)
    import torch

    w = torch.randn(1, requires_grad=True)
    with pytest.raises(RuntimeError) as refused:
        w -= 0.01 * w  # what the pitfall runs: an in-place change of a leaf that requires grad
    assert messages[-1] == f"torch 拒绝了这次更新：{refused.value}"
    button = panel.problem_view.buttons["use_no_grad"]
    assert button.text() == "在 torch.no_grad() 里更新"


def test_the_dark_theme_reaches_plots_phases_and_network_pictures(window, area, qtbot):
    regression = area.regression
    playground = _playground(area, qtbot)
    light_frame = playground.frame.network
    window.appearance.apply(theme_choice="dark")
    background = DARK.colours["plot_background"]
    for plot in (
        regression.plots.loss_plot,
        playground.boundary.plot,
        playground.network_view.plot,
    ):
        qtbot.waitUntil(lambda p=plot: p.backgroundBrush().color().name() == background)
    idle = regression.phase_view.frames["forward"].styleSheet()
    assert DARK.colours["surface"] in idle and LIGHT.colours["surface"] not in idle
    tiles, _boundary = theme_colour_tables()  # value 0 is drawn in the plots' background
    neutral = tiles[128:129].view(np.uint8)[:3]
    assert abs(neutral.astype(int) - [0x18, 0x1C, 0x24]).max() <= 3
    # The pictures are painted again in the dark theme at once, though nothing is training.
    qtbot.waitUntil(lambda: playground.frame.network is not light_frame, timeout=TIMEOUT)
    corner = playground.frame.network[playground.frame.network.shape[0] // 2, 0]
    assert corner[3] == 0 or corner[:3].max() < 200  # no white box in a dark window


def test_at_200_percent_the_fixed_width_numbers_and_codes_grow(window, area, qtbot):
    cell = area.regression.results_view.cells["learned_w"]
    code = area.regression.phase_view.codes["update"]
    before = (cell.sizeHint().width(), code.font().pointSizeF())
    window.appearance.apply(zoom=2.0)
    qtbot.waitUntil(lambda: code.font().pointSizeF() > 1.5 * before[1])
    assert cell.sizeHint().width() > 1.5 * before[0]
