"""How the Compare area meets the rest of the window: the Files area's menus ask it for a
comparison, it lists the Files area's open files and reuses their inspections, and
File → Compare… compares two selected entries at once or asks which two checkpoints."""

from __future__ import annotations

from tensorviz.ui.diff.compare_jobs import CompareRequest
from tensorviz.ui.diff.files_compare_actions import attach_compare_actions, selected_entries_request


def show_comparison(window, request: CompareRequest) -> None:
    window.panel("compare").compare(request)
    window.show_area("compare")


def link_files_panel(files_panel, window) -> None:
    attach_compare_actions(files_panel, lambda request: show_comparison(window, request))


def link_compare_panel(compare_panel, window) -> None:
    def open_paths() -> list[str]:
        files = window.built_panel("files")
        return files.open_paths() if files is not None else list(window.queued_files)

    def inspection_of(path: str):
        files = window.built_panel("files")
        inspection = None if files is None else files.inspections.get(path)
        return inspection if inspection is not None and inspection.error is None else None

    compare_panel.open_paths = open_paths
    compare_panel.inspection_of = inspection_of


def compare_from_menu(window) -> None:
    """File → Compare…: two entries selected in the Files area (shown now) are compared at once;
    otherwise the Compare area asks which two checkpoints."""
    files = window.built_panel("files")
    if window.current_area() == "files" and files is not None:
        request = selected_entries_request(files)
        if request is not None:
            show_comparison(window, request)
            return
    window.show_area("compare")
    window.panel("compare").open_compare_dialog()
