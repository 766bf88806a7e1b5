"""Reaching the Compare area as a user does: File → Compare… (the dialog with the open files),
the Files area's right-click menus (a file with another, two entries, one entry with the same
entry of another file), and Ctrl+Shift+D on two selected entries."""

import torch
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtGui import QKeySequence

from tensorviz.ui.diff.compare_links import show_comparison
from tensorviz.ui.diff.files_compare_actions import file_menu, tree_menu


def open_two(window, qtbot, tmp_path):
    torch.manual_seed(0)
    state = {
        "enc.weight": torch.randn(4, 3),
        "enc.bias": torch.randn(4),
        "dec.weight": torch.randn(3),
    }
    tuned = {k: v + 0.01 if k == "enc.weight" else v.clone() for k, v in state.items()}
    paths = [str(tmp_path / "base.pt"), str(tmp_path / "tuned.pt")]
    torch.save({"model": state, "epoch": 1}, paths[0])
    torch.save({"model": tuned, "epoch": 2}, paths[1])
    window.open_paths(paths)
    files = window.panel("files")
    qtbot.waitUntil(lambda: len(files.inspections) == 2 and not files.is_busy(), timeout=30_000)
    return files, paths


def submenu_actions(menu):
    (submenu,) = [a.menu() for a in menu.actions() if a.menu() is not None]
    return submenu, submenu.actions()


def wait_compared(qtbot, window):
    compare = window.panel("compare")
    qtbot.waitUntil(lambda: compare.comparison is not None and not compare.is_busy(),
                    timeout=30_000)  # fmt: skip
    return compare.comparison


def test_file_menu_compares_the_open_files(window, qtbot, tmp_path):
    assert "&Compare…" in [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    files, paths = open_two(window, qtbot, tmp_path)
    action = next(a for a in window.menuBar().actions()[0].menu().actions()
                  if a.text() == "&Compare…")  # fmt: skip
    assert action.shortcut() == QKeySequence("Ctrl+Shift+D")
    window.show_area("workbench")
    action.trigger()
    dialog = window.panel("compare").compare_dialog
    assert window.current_area() == "compare" and dialog.isVisible()
    assert (dialog.path(0), dialog.path(1)) == tuple(paths)
    dialog.combos[1].setEditText(str(tmp_path / "missing.pt"))
    dialog.accept()
    assert dialog.isVisible() and "no such file" in dialog.problem.text()
    dialog.set_paths(*paths)
    dialog.accept()
    comparison = wait_compared(qtbot, window)
    assert comparison.side_a.path == paths[0] and comparison.count("changed") == 1
    assert [v.key for v in comparison.values] == ["epoch"]


def test_right_click_a_file_compares_it_with_another(window, qtbot, tmp_path):
    files, paths = open_two(window, qtbot, tmp_path)
    menu = file_menu(files, paths[1], window.panel("compare").compare)
    submenu, actions = submenu_actions(menu)
    assert [a.text() for a in actions] == ["base.pt"]
    actions[0].trigger()
    comparison = wait_compared(qtbot, window)
    assert (comparison.side_a.path, comparison.side_b.path) == (paths[1], paths[0])
    assert comparison.side_a.tensors["model.enc.weight"].read is not None


def test_two_selected_entries_and_one_entry_across_files(window, qtbot, tmp_path):
    files, paths = open_two(window, qtbot, tmp_path)
    files.show_file(paths[0])
    files.select_entry("['model']['enc.weight']")
    menu = tree_menu(files, lambda request: show_comparison(window, request))
    both, _ = menu.actions()
    assert not both.isEnabled()  # one entry selected
    _, (other,) = submenu_actions(menu)
    assert other.text() == "tuned.pt"
    other.trigger()
    comparison = wait_compared(qtbot, window)
    (pair,) = comparison.pairs
    assert pair.matched_by == "picked" and pair.status == "changed"
    # two entries of one file, with the window's shortcut while the Files area is shown
    window.show_area("files")
    index = files.model.index_of_node(
        next(n for n in files.model.inspection.entries if n.key_text() == "['model']['enc.bias']")
    )
    files.tree.selectionModel().select(
        index, QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    )
    assert len(files.selected_nodes()) == 2 and tree_menu(files, print).actions()[0].isEnabled()
    window.panel("compare").comparison = None
    window.compare_checkpoints()
    comparison = wait_compared(qtbot, window)
    assert window.current_area() == "compare"
    (pair,) = comparison.pairs
    assert pair.facts_changed() == ["shape [4, 3] → [4]"]
