"""Compare from the Files area, where the files already are: right-click a file → Compare with
another open file; select two entries → Compare them; one entry → Compare with the same entry in
another open file. Attached from outside through the Files panel's public parts (its file list,
tree, selection and inspections), so the Files area's own code is untouched."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QPoint, Qt
from PySide6.QtWidgets import QMenu, QWidget

from tensorviz.core.diff.sides import node_at_path, node_path
from tensorviz.ui.diff.compare_jobs import CompareRequest, SideRequest
from tensorviz.ui.files.placeholders import filled

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls


def _opened(files_panel) -> dict:
    """Path → inspection of the files that opened without error, in the list's order."""
    inspections = files_panel.inspections
    return {path: inspections[path] for path in files_panel.open_paths()
            if path in inspections and inspections[path].error is None}  # fmt: skip


def selected_entries_request(files_panel) -> CompareRequest | None:
    """The two entries selected in the Files area's tree, A the upper one; else None."""
    inspection = files_panel.model.inspection
    nodes = files_panel.selected_nodes()
    if inspection is None or len(nodes) != 2:
        return None
    path = inspection.path
    return CompareRequest(SideRequest(path, inspection, nodes[0]),
                          SideRequest(path, inspection, nodes[1]))  # fmt: skip


def file_menu(files_panel, path: str, request: Callable[[CompareRequest], None]) -> QMenu:
    """'Compare with' every other open file (the clicked one is A)."""
    opened = _opened(files_panel)
    menu = QMenu(files_panel)
    submenu = menu.addMenu(
        filled(translate("FilesCompareActions", "Compare %1 with"), Path(path).name)
    )
    others = [p for p in opened if p != path]
    for other in others:
        action = submenu.addAction(Path(other).name)
        action.setToolTip(other)
        action.triggered.connect(
            lambda _=False, o=other: request(
                CompareRequest(SideRequest(path, opened[path]), SideRequest(o, opened[o]))
            )
        )
    submenu.setEnabled(bool(others) and path in opened)
    if not others:
        submenu.setTitle(
            translate("FilesCompareActions", "Compare with… (open a second file first)")
        )
    return menu


def tree_menu(files_panel, request: Callable[[CompareRequest], None]) -> QMenu:
    menu = QMenu(files_panel)
    pair = selected_entries_request(files_panel)
    both = menu.addAction(translate("FilesCompareActions", "Compare the two selected entries"))
    both.setEnabled(pair is not None)
    both.triggered.connect(lambda: pair is not None and request(pair))
    inspection, nodes = files_panel.model.inspection, files_panel.selected_nodes()
    if inspection is None or len(nodes) != 1:
        return menu
    where = node_path(nodes[0])
    submenu = menu.addMenu(
        filled(translate("FilesCompareActions", "Compare %1 with the same entry in"), where)
    )
    found = False
    for path, other in _opened(files_panel).items():
        twin = node_at_path(other, where) if path != inspection.path else None
        if twin is None:
            continue
        found = True
        action = submenu.addAction(Path(path).name)
        action.triggered.connect(
            lambda _=False, p=path, o=other, t=twin: request(
                CompareRequest(
                    SideRequest(inspection.path, inspection, nodes[0]), SideRequest(p, o, t)
                )  # fmt: skip
            )
        )
    submenu.setEnabled(found)
    return menu


def attach_compare_actions(files_panel, request: Callable[[CompareRequest], None]) -> None:
    """Right-click menus on the Files area's file list and tree that ask for a comparison."""

    def popup(widget: QWidget, build: Callable[[QPoint], QMenu | None]) -> None:
        widget.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)

        def show(point: QPoint) -> None:
            menu = build(point)
            if menu is not None:
                menu.popup(widget.viewport().mapToGlobal(point))

        widget.customContextMenuRequested.connect(show)

    def for_file(point: QPoint) -> QMenu | None:
        item = files_panel.file_list.itemAt(point)
        if item is None:
            return None
        return file_menu(files_panel, item.data(Qt.ItemDataRole.UserRole), request)

    popup(files_panel.file_list, for_file)
    popup(files_panel.tree, lambda _point: tree_menu(files_panel, request))
