"""How the Workbench runs a core action: checked first (a refused one shows its explained error),
run here with a busy cursor when quick or off the GUI thread when heavy, a write that can be
neither checked nor undone asked about first, and the outcome shown: the new tensor selected with
its verdict, or what an in-place write changed (WorkbenchPanel mixes this in)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox

from tensorviz.core.explain.errors import explain_error
from tensorviz.core.tensors.form_words import in_language
from tensorviz.core.tensors.workbench_actions import ActionError, ActionOutcome, PreparedAction
from tensorviz.ui.workbench.text_arguments import arg


class ActionRunning:
    """Needs the panel's background, error_panel, status_message, select, operate_form,
    create_form, index_picture, _acting, last_outcome and _scroll_to_index_picture. Its texts
    are the panel's (named context: lupdate files a mixin's self.tr under the mixin's name)."""

    def _run(self, action) -> ActionOutcome | None:
        """Run a core action with a busy cursor; show its explained error instead of raising.
        While it runs, workspace events only refresh the list: the caller shows the result once."""
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        self._acting = True
        try:
            outcome = action()
        except ActionError as error:
            self._show_problem(error.explained)
            return None
        except Exception as error:  # noqa: BLE001 — never a traceback dialog; explain instead
            self._show_problem(explain_error(error))
            return None
        finally:
            self._acting = False
            QGuiApplication.restoreOverrideCursor()
        self.error_panel.clear()
        self.last_outcome = outcome
        return outcome

    def _show_problem(self, explained) -> None:
        self.error_panel.show_error(explained)
        self.status_message.emit(explained.title)

    def _prepare(self, prepare) -> PreparedAction | None:
        """Check an action (shows the problem and returns None when it is refused)."""
        if self._still_computing():
            return None
        try:
            return prepare()
        except ActionError as error:
            self._show_problem(error.explained)
        except Exception as error:  # noqa: BLE001 — never a traceback dialog; explain instead
            self._show_problem(explain_error(error))
        return None

    def _still_computing(self) -> bool:
        if self.background.is_busy():
            self.status_message.emit(
                QCoreApplication.translate(
                    "WorkbenchPanel", "Still computing — wait for it, or Discard it (Esc)"
                )
            )
        return self.background.is_busy()

    def _perform(self, prepared: PreparedAction | None) -> None:
        """Run it here when it is quick; otherwise compute it off the GUI thread."""
        if prepared is None:
            return
        if prepared.heavy:
            self.error_panel.clear()
            self.background.start(prepared)
            return
        outcome = self._confirmed(self._run(prepared.run))
        if outcome:
            self._show_outcome(outcome)

    def _on_background_finished(self, prepared: PreparedAction, result) -> None:
        outcome = self._confirmed(self._run(lambda: prepared.finish(result)))
        if outcome:
            self._show_outcome(outcome)

    def _confirmed(self, outcome: ActionOutcome | None) -> ActionOutcome | None:
        """An outcome that asks first (a write that can be neither checked nor undone) is done
        only after the user's yes; otherwise nothing is written."""
        if outcome is None or not outcome.question:
            return outcome
        if not self.ask_to_write(outcome.code, outcome.question):
            self.status_message.emit(
                arg(
                    QCoreApplication.translate(
                        "WorkbenchPanel", "Nothing was written: %1 was cancelled"
                    ),
                    outcome.code,
                )
            )
            return None
        return self._run(outcome.proceed)

    def ask_to_write(self, code: str, question: str) -> bool:
        """Ask before a write that cannot be undone; No is the default (Esc, Enter)."""
        answer = QMessageBox.warning(
            self,
            QCoreApplication.translate("WorkbenchPanel", "Write without undo?"),
            f"{code}\n\n{question}",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _show_outcome(self, outcome: ActionOutcome) -> None:
        if outcome.created:
            first = outcome.created[0]
            self.select(first, outcome.verdicts.get(first), outcome.code)
            if self.index_picture.isVisibleTo(self):  # gather/scatter: bring its picture in view
                QTimer.singleShot(0, self._scroll_to_index_picture)
            if outcome.verdicts:  # an operation; a creation has no view/copy verdict
                self.operate_form.result_name.clear()
                count = len(outcome.created)
                self.status_message.emit(
                    QCoreApplication.translate(
                        "WorkbenchPanel", "%1 (%n parts)", "", count
                    ).replace("%1", outcome.code)
                    if count > 1
                    else outcome.code
                )
            else:
                self.create_form.result_name.clear()
                self.status_message.emit(
                    arg(
                        QCoreApplication.translate("WorkbenchPanel", "Created %1"),
                        outcome.code.splitlines()[-1],
                    )
                )
        else:  # an in-place write
            self.operate_form.result_name.clear()
            (name,) = outcome.verdicts
            self.select(name, outcome.verdicts[name], outcome.code)
            changed = arg(
                QCoreApplication.translate("WorkbenchPanel", "%1 — changed %2"),
                outcome.code,
                ", ".join(outcome.changed),
            )
            said = " ".join(in_language(note) for note in outcome.notes)
            self.status_message.emit(f"{changed} {said}" if said else changed)
