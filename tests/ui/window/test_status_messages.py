"""Status-bar messages are about the moment they were shown: a switch of language clears them
(their words are the old language's), a later switch of area too, while a message shown by the
very gesture that switched the area stays."""

from tensorviz.ui.window import status_bar


def test_a_later_switch_of_area_clears_the_old_areas_message(window, qtbot, monkeypatch):
    monkeypatch.setattr(status_bar, "SAME_GESTURE_MS", -1)  # every message counts as older
    window.show_area("workbench")
    bar = window.statusBar()
    bar.showMessage("Nothing to undo here", 4000)
    assert bar.currentMessage()
    window.show_area("layout")
    assert bar.currentMessage() == ""


def test_a_message_shown_by_the_switch_itself_stays(window, tmp_path, qtbot):
    import torch

    f = tmp_path / "w.pt"
    torch.save({"w": torch.zeros(2)}, f)
    window.show_area("workbench")
    window.open_paths([str(f)])  # switches to Files, then says what it queued
    assert window.current_area() == "files"
    assert "Queued" in window.statusBar().currentMessage()


def test_a_switch_of_language_clears_the_message(window, qtbot):
    bar = window.statusBar()
    bar.showMessage("Nothing to undo here", 10_000)
    window.language_menu.choices["zh_CN"].trigger()
    try:
        qtbot.waitUntil(lambda: bar.currentMessage() == "")
    finally:
        window.language_menu.choices["en"].trigger()
        qtbot.waitUntil(lambda: window.language_menu.title() == "&Language")
