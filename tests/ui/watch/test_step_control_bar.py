"""The step control bar: its buttons and shortcuts write the commands into control.json, its
status and buttons follow the run's events, and it beats while its window is open."""

import os
import time

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file
from tensorviz.core.watch.step_control import HEARTBEAT_FILE, heartbeat_age, read_control
from tensorviz.ui.watch.step_control_bar import StepControlBar


@pytest.fixture
def run(tmp_path):
    write_run_file(tmp_path, name="bar", world_size=1)
    writer = RankStreamWriter(tmp_path, 0)
    writer.write_schema({"schema": 0, "params": [{"name": "w", "shape": [1]}], "modules": []})
    yield writer
    writer.close()


def write_steps(writer, first, last):
    for step in range(first, last + 1):
        writer.write_step({"step": step, "schema": 0, "loss": 1.0},
                          {"grad_norm": np.ones(1, np.float32)})  # fmt: skip


@pytest.fixture
def bar(qtbot, tmp_path, run):
    made = StepControlBar(tmp_path)
    qtbot.addWidget(made)
    made.show()
    qtbot.waitExposed(made)
    yield made
    made.shutdown()


def test_the_status_and_the_buttons_follow_the_events(bar, qtbot, run):
    assert bar.status_label.text() == "waiting for the first step"
    write_steps(run, 1, 812)
    qtbot.waitUntil(lambda: bar.status_label.text() == "running · step 812")
    assert bar.pause_button.isEnabled() and bar.run_to_button.isEnabled()
    assert not (bar.step_button.isEnabled() or bar.continue_button.isEnabled()
                or bar.inspect_button.isEnabled())  # fmt: skip
    run.write_event("paused", step=812, optimizer=0)
    qtbot.waitUntil(lambda: bar.status_label.text() == "paused at step 812")
    assert bar.step_button.isEnabled() and bar.continue_button.isEnabled()
    assert bar.inspect_button.isEnabled() and not bar.pause_button.isEnabled()
    assert bar.run_to_spin.minimum() == 813
    run.write_event("resumed", step=812, reason="continue")
    write_steps(run, 813, 815)
    qtbot.waitUntil(lambda: bar.status_label.text() == "running · step 815")
    run.write_event("ended", status="finished", step=815)
    qtbot.waitUntil(lambda: bar.status_label.text() == "finished at step 815")
    buttons = (bar.pause_button, bar.step_button, bar.continue_button, bar.run_to_button,
               bar.inspect_button)  # fmt: skip
    assert not any(b.isEnabled() for b in buttons)


def test_the_buttons_send_their_commands(bar, qtbot, run, tmp_path):
    write_steps(run, 1, 3)
    qtbot.waitUntil(lambda: bar.status_label.text() == "running · step 3")
    qtbot.mouseClick(bar.pause_button, Qt.MouseButton.LeftButton)
    assert read_control(tmp_path).command == "pause"
    assert bar.status_label.text() == "running · step 3 · pausing…"
    assert not bar.pause_button.isEnabled()
    run.write_event("paused", step=4, optimizer=0)
    qtbot.waitUntil(bar.step_button.isEnabled)
    with qtbot.waitSignal(bar.command_sent) as sent:
        qtbot.mouseClick(bar.step_button, Qt.MouseButton.LeftButton)
    assert sent.args == ["step"] and read_control(tmp_path).command == "step"
    qtbot.mouseClick(bar.continue_button, Qt.MouseButton.LeftButton)
    assert read_control(tmp_path).command == "continue"
    qtbot.mouseClick(bar.inspect_button, Qt.MouseButton.LeftButton)
    assert read_control(tmp_path).command == "inspect"
    bar.run_to_spin.setValue(40)
    qtbot.mouseClick(bar.run_to_button, Qt.MouseButton.LeftButton)
    command = read_control(tmp_path)
    assert (command.command, command.step, command.seq) == ("run_to", 40, 5)


def test_the_shortcuts_act_while_focus_is_in_the_bar_or_its_panel(qtbot, tmp_path, run):
    panel = QWidget()
    qtbot.addWidget(panel)
    bar = StepControlBar(tmp_path, parent=panel)
    other = QWidget(panel)  # say, the heatmap
    other.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    bar.install_shortcuts_on(panel)
    panel.show()
    qtbot.waitExposed(panel)
    write_steps(run, 1, 5)
    qtbot.waitUntil(lambda: bar.state.step == 5)
    other.setFocus()
    qtbot.keyClick(other, Qt.Key.Key_F6)
    assert read_control(tmp_path).command == "pause"
    run.write_event("paused", step=6, optimizer=0)
    qtbot.waitUntil(bar.continue_button.isEnabled)
    qtbot.keyClick(other, Qt.Key.Key_F10)
    assert read_control(tmp_path).command == "step"
    qtbot.keyClick(other, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)  # fmt: skip
    assert read_control(tmp_path).command == "inspect"
    qtbot.keyClick(other, Qt.Key.Key_F8)
    assert read_control(tmp_path).command == "continue"
    run.write_event("resumed", step=6, reason="continue")
    qtbot.waitUntil(lambda: bar.state.state == "running")
    seq = read_control(tmp_path).seq
    qtbot.keyClick(other, Qt.Key.Key_F8)  # Continue does not apply while running: nothing sent
    assert read_control(tmp_path).seq == seq
    assert "(F6)" in bar.pause_button.toolTip() and "(F10)" in bar.step_button.toolTip()
    bar.shutdown()


def test_the_bar_beats_while_its_window_is_open(bar, qtbot, tmp_path):
    assert heartbeat_age(tmp_path) is not None  # beat on show
    long_ago = time.time() - 3600
    os.utime(tmp_path / HEARTBEAT_FILE, (long_ago, long_ago))
    bar.heartbeat_timer.setInterval(10)
    qtbot.waitUntil(lambda: heartbeat_age(tmp_path) < 600)
    bar.hide()
    bar.shutdown()
    assert not bar.heartbeat_timer.isActive()


def test_a_folder_that_is_no_run_is_one_sentence(qtbot, tmp_path):
    bar = StepControlBar(tmp_path / "nowhere")
    qtbot.addWidget(bar)
    assert "is not a folder" in bar.status_label.text()
    assert not bar.pause_button.isEnabled() and not bar.run_to_button.isEnabled()
    bar.shutdown()
