"""The Workbench area: the workspace list, the Create / Apply forms, the identity of the selected
tensor (with errors explained above it) and its values. Gestures become core calls
(workbench_actions); results and errors come back as plain objects and are shown here. Every
text is in the language in force, said again on a switch (Retranslating)."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.tensors.form_words import in_language
from tensorviz.core.tensors.identity import Verdict, view_verdict
from tensorviz.core.tensors.op_params import tensor_choices
from tensorviz.core.tensors.workbench_actions import (
    ActionOutcome,
    input_problem,
    prepare_creation,
    prepare_operation,
    write_numpy,
)
from tensorviz.core.tensors.workspace import Workspace, WorkspaceEvent
from tensorviz.ui.widgets.error_panel import ErrorPanel
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.scrolling import keep_within_view, scrolling
from tensorviz.ui.workbench.action_forms import CreateForm, OperateForm
from tensorviz.ui.workbench.action_running import ActionRunning
from tensorviz.ui.workbench.background_action import BackgroundAction
from tensorviz.ui.workbench.identity_card import IdentityCard
from tensorviz.ui.workbench.index_picture_view import IndexPictureView
from tensorviz.ui.workbench.quick_create import QuickCreateRow
from tensorviz.ui.workbench.text_arguments import arg
from tensorviz.ui.workbench.value_view import ValueView
from tensorviz.ui.workbench.workspace_column import WorkspaceColumn
from tensorviz.ui.workbench.workspace_editing import WorkspaceEditing
from tensorviz.ui.workbench.workspace_list import WorkspaceListModel


class WorkbenchPanel(ActionRunning, WorkspaceEditing, Retranslating, QWidget):
    status_message = Signal(str)
    selection_changed = Signal(str)  # the selected workspace name ("" for none)
    architecture_requested = Signal()  # the offered "Architecture of model(x)" was clicked

    def __init__(self, workspace: Workspace, devices: list[str] | None = None, parent=None):
        super().__init__(parent)
        self.workspace = workspace
        self.selected: str | None = None
        self._acting = False  # a core action is running (see _run)
        self.last_outcome: ActionOutcome | None = None
        self.list_model = WorkspaceListModel(workspace, self)
        self.create_form = CreateForm()
        self.quick_create = QuickCreateRow()
        self.operate_form = OperateForm()
        for form in (self.create_form, self.operate_form):
            form.set_devices(devices or ["cpu"])
        self.identity = IdentityCard()
        self.error_panel = ErrorPanel()
        self.values = ValueView()
        self.index_picture = IndexPictureView()
        self.background = BackgroundAction()
        self._build_layout()
        self._connect()
        self._unsubscribe = workspace.subscribe(self._on_workspace_changed)
        self._refresh_names()
        if workspace.names():
            self.select(workspace.names()[-1])
        self.retranslate()

    def retranslate(self) -> None:
        self.tabs.setTabText(0, self.tr("Apply operation"))
        self.tabs.setTabText(1, self.tr("Create tensor"))
        self.error_panel.footer = self.tr("Nothing in the workspace was changed.")  # next error
        self.architecture_button.setToolTip(
            self.tr("Open the forward of the model this tensor belongs to")
        )
        self._update_buttons()

    # --- layout ----------------------------------------------------------------------------------

    def _build_layout(self) -> None:
        left = WorkspaceColumn(self.list_model)
        self.list_view, self.history = left.list_view, left.history
        self.rename_button, self.duplicate_button = left.rename_button, left.duplicate_button
        self.delete_button, self.undo_button = left.delete_button, left.undo_button
        self.redo_button = left.redo_button

        self.tabs = QTabWidget()  # each form scrolls when a zoomed form is taller than its room
        self.tabs.addTab(scrolling(self.operate_form, Qt.Orientation.Vertical), "")
        self.tabs.addTab(scrolling(self.create_form, Qt.Orientation.Vertical), "")
        card = QWidget()
        card_layout = QVBoxLayout(card)
        card_layout.setContentsMargins(0, 0, 0, 0)
        card_layout.addWidget(self.error_panel)
        self.architecture_button = QPushButton()  # shown for a parameter of a script's model
        self.architecture_button.clicked.connect(self.architecture_requested)
        self.architecture_button.hide()
        card_layout.addWidget(self.architecture_button, 0, Qt.AlignmentFlag.AlignLeft)
        card_layout.addWidget(self.identity, 1)
        card_layout.addWidget(self.index_picture)
        card_scroll = self.card_scroll = scrolling(card)
        keep_within_view(card_scroll, self.error_panel)  # the card below may scroll sideways

        forms = QWidget()
        forms_layout = QVBoxLayout(forms)
        forms_layout.setContentsMargins(0, 0, 0, 0)
        forms_layout.addWidget(self.quick_create)
        forms_layout.addWidget(self.tabs, 1)
        forms_layout.addWidget(self.background)
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(forms)
        top.addWidget(card_scroll)
        top.setStretchFactor(0, 2)  # both shrink in a narrow window, the card a little more
        top.setStretchFactor(1, 3)
        top.setSizes([340, 560])
        centre = QSplitter(Qt.Orientation.Vertical)
        centre.addWidget(top)
        centre.addWidget(self.values)
        centre.setSizes([340, 400])
        outer = QSplitter(Qt.Orientation.Horizontal)
        outer.addWidget(left)
        outer.addWidget(centre)
        outer.setStretchFactor(1, 1)
        outer.setSizes([230, 920])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(outer)

    def offer_architecture(self, text: str) -> None:
        """Show (text) or hide ("") the button to a model's architecture."""
        self.architecture_button.setText(text)
        self.architecture_button.setVisible(bool(text))

    def _connect(self) -> None:
        self.list_view.selectionModel().currentChanged.connect(self._on_current_changed)
        self.create_form.create_requested.connect(self._on_create_requested)
        self.quick_create.create_requested.connect(self._on_quick_create_requested)
        self.operate_form.apply_requested.connect(self._on_apply_requested)
        self.identity.tensor_link_activated.connect(self.select)
        self.history.step_clicked.connect(self.select)
        self.identity.numpy_write_requested.connect(self._on_numpy_write_requested)
        self.rename_button.clicked.connect(self.rename_selected)
        self.duplicate_button.clicked.connect(self.duplicate_selected)
        self.delete_button.clicked.connect(self.delete_selected)
        self.undo_button.clicked.connect(self.undo)
        self.redo_button.clicked.connect(self.redo)
        self.background.finished.connect(self._on_background_finished)
        self.background.failed.connect(self._show_problem)
        self.background.discarded.connect(
            lambda code: self.status_message.emit(
                arg(self.tr("Discarded %1 (its result is dropped)"), code)
            )
        )
        self.background.busy_changed.connect(self._on_busy_changed)
        QShortcut(QKeySequence("Esc"), self, self.background.discard)
        # Scoped to the list so typing in a form never renames, duplicates or deletes a tensor;
        # Undo is the window's Edit → Undo (Ctrl+Z), which calls undo() below.
        shortcuts = {
            QKeySequence("F2"): self.rename_selected,
            QKeySequence("Ctrl+D"): self.duplicate_selected,
            QKeySequence.StandardKey.Delete: self.delete_selected,
        }
        for keys, slot in shortcuts.items():
            QShortcut(keys, self.list_view, slot, context=Qt.ShortcutContext.WidgetShortcut)

    # --- selection -------------------------------------------------------------------------------

    def select(self, name: str, verdict: Verdict | None = None, code: str | None = None) -> None:
        """Make `name` current in the list and show it (once)."""
        if self.list_model.row_of(name) < 0:
            return
        self.selected = name  # so the list's currentChanged does not show it a second time
        self._highlight_in_list(name)
        self._show(name, verdict, code)

    def _highlight_in_list(self, name: str) -> None:
        row = self.list_model.row_of(name)
        if row >= 0:
            self.list_view.selectionModel().setCurrentIndex(
                self.list_model.index(row), QItemSelectionModel.SelectionFlag.ClearAndSelect
            )

    def _on_current_changed(self, current, _previous) -> None:
        name = self.list_model.name_at(current.row()) if current.isValid() else None
        if name and name != self.selected:  # the user picked another tensor
            self.error_panel.clear()
            self._show(name)

    def _show(self, name: str | None, verdict: Verdict | None = None, code: str | None = None):
        self.selected = name
        if name is None or name not in self.workspace:
            self.identity.show_entry(None)
            self.index_picture.set_picture(None)
            self.history.clear()
            self.values.set_tensor(None)
            self.selection_changed.emit("")
            return
        entry = self.workspace.entry(name)
        origins = self.workspace.origins(name)
        if verdict is None:  # against the very tensors it was made from, never a newer namesake
            inputs = {o.name_now: self.workspace.tensor(o.name_now) for o in origins if o.name_now}
            verdict = view_verdict(entry.tensor, inputs) if inputs else None
        self.identity.show_entry(entry, verdict, self.workspace.sharing(name), code, origins)
        self.index_picture.show_entry(self.workspace, name)
        self.history.show_lineage(self.workspace, name)
        self.values.set_tensor(entry.tensor, name)
        self.operate_form.set_input(name)
        self._update_buttons()
        self.selection_changed.emit(name)

    def _scroll_to_index_picture(self) -> None:
        self.card_scroll.ensureWidgetVisible(self.index_picture, 0, 0)

    # --- actions ---------------------------------------------------------------------------------

    def _on_busy_changed(self, busy: bool) -> None:
        for form in (self.create_form, self.operate_form):
            form.button.setEnabled(not busy)
        self.quick_create.set_enabled(not busy)

    def _on_create_requested(self, kind: str, params: dict, options, name: str) -> None:
        if problem := self.create_form.seed_problem():
            self._show_problem(input_problem(problem).explained)
            return
        self._create(kind, params, options, name)

    def _on_quick_create_requested(self, kind: str, params: dict, options, name: str) -> None:
        self._create(kind, params, options, name)  # no seed field in the quick row

    def _create(self, kind: str, params: dict, options, name: str) -> None:
        self._perform(
            self._prepare(
                lambda: prepare_creation(self.workspace, kind, params, options, name or None)
            )
        )

    def _on_apply_requested(self, op: str, input_name: str, params: dict, name: str) -> None:
        self._perform(
            self._prepare(
                lambda: prepare_operation(self.workspace, op, input_name, params, name or None)
            )
        )

    def _on_numpy_write_requested(self, name: str, index: str, value: str) -> None:
        if self._still_computing():  # a write must not race the computation reading memory
            return
        outcome = self._run(lambda: write_numpy(self.workspace, name, index, value))
        if outcome:
            self.select(name, None, outcome.code)
            self.status_message.emit(f"{outcome.code} — {in_language(outcome.notes[0])}")

    def showEvent(self, event) -> None:  # another area may have undone, redone or run backward
        super().showEvent(event)
        self._update_buttons()
        self.identity.refresh_values()

    # --- workspace events -----------------------------------------------------------------------

    def _on_workspace_changed(self, event: WorkspaceEvent) -> None:
        self._refresh_names()
        if event.kind == "renamed" and self.selected == event.old_name:
            self.selected = event.names[0]
        self._update_buttons()
        if self._acting:  # the action's handler shows its result once it returns
            self._highlight_in_list(self.selected or "")
            return
        if self.selected not in self.workspace:
            names = self.workspace.names()
            self._show(names[-1] if names else None)
        else:  # names in the card, history and values may all have changed
            self._show(self.selected)
        self._highlight_in_list(self.selected or "")

    def _refresh_names(self) -> None:
        choices = tensor_choices(self.workspace.tensors())
        self.create_form.set_tensor_choices(choices)
        self.operate_form.set_tensor_choices(choices)

    def shutdown(self) -> None:
        """Stop background work and detach from the workspace (window closing)."""
        self.background.shutdown()
        self.values.shutdown()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self.list_model.close()
            self._unsubscribe = None
