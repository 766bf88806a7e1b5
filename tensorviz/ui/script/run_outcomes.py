"""What the Script area shows when a run ends: finished (its tensors into the workspace as one
undoable step), failed (the error explained, and what existed when it failed), stopped, or a
syntax error; and what the output dropped (ScriptPanel mixes this in)."""

from __future__ import annotations

import torch
from PySide6.QtCore import QCoreApplication

from tensorviz.core.script.output import MAX_KEPT_CHARS
from tensorviz.core.script.results import RunSummary, apply_script_result
from tensorviz.core.script.run import ScriptResult
from tensorviz.core.tensors.workspace import WorkspaceError
from tensorviz.ui.script.output_view import MAX_LINES
from tensorviz.ui.script.run_status_texts import failed_text, stopped_text


class RunOutcomes:
    """Needs the panel's workspace, script_run, output, editor, error_box, captured, toolbar,
    status, _source, _namespace, last_summary, model_calls and status_message. Its texts are the
    panel's (named context: lupdate files a mixin's self.tr under the mixin's name)."""

    def _note_dropped_output(self) -> None:
        """Say how much output the run dropped in all, and why (nothing is dropped silently)."""
        dropped = self.script_run.output.total_dropped if self.script_run is not None else 0
        if dropped:
            text = QCoreApplication.translate(
                "ScriptPanel",
                "%1 characters of this run's output were dropped: a run keeps its newest %2 and "
                "the pane shows what it could keep up with",
            )
            self.output.append_line(
                text.replace("%1", f"{dropped:,}").replace("%2", f"{MAX_KEPT_CHARS:,}")
            )
        elif self.output.lines_fell_off():
            text = QCoreApplication.translate(
                "ScriptPanel", "The pane keeps the last %1 lines; older ones left"
            )
            self.output.append_line(text.replace("%1", f"{MAX_LINES:,}"))

    def _apply(self, result: ScriptResult) -> RunSummary | None:
        """The run's tensors into the workspace (one undoable step); None when they cannot be."""
        kept_before = self._namespace
        # Only what the next run may see: its tensors come from the workspace (build_namespace).
        kept_after = {k: v for k, v in result.namespace.items() if not isinstance(v, torch.Tensor)}
        finished = result.status == "finished"

        def undo_namespace() -> None:  # Edit → Undo of this run: the next run sees what it saw
            self._namespace = kept_before

        def redo_namespace() -> None:
            self._namespace = kept_after

        try:
            summary = apply_script_result(
                self.workspace,
                result,
                self._source,
                undo_namespace if finished else None,
                redo_namespace if finished else None,
            )
        except WorkspaceError as error:  # e.g. the workspace changed in a way we cannot merge
            said = str(error)
            text = QCoreApplication.translate(
                "ScriptPanel", "The run's tensors could not be added: %1"
            ).replace("%1", said)
            self.output.append_line(text, "stderr")
            self.captured.show_nothing(
                lambda: QCoreApplication.translate(
                    "ScriptPanel", "Nothing was captured: %1"
                ).replace("%1", said)
            )
            return None
        if finished:
            self._namespace = kept_after
        self.last_summary = summary
        return summary

    def _on_finished(self, result: ScriptResult) -> None:
        summary = self._apply(result)
        if summary is None:
            self.toolbar.say(
                lambda: QCoreApplication.translate(
                    "ScriptPanel", "Finished, but nothing was captured"
                )
            )
            return
        self.captured.show_summary(summary)
        self._offer_architectures(result.model_calls)
        duration = result.duration_s
        headline = summary.headline(duration)
        for note in summary.notes:
            self.output.append_line(note)
        self.output.append_line(f"✓ {headline}", "ok")
        if summary.rows:
            self.toolbar.say(
                lambda: QCoreApplication.translate(
                    "ScriptPanel", "%1 — Edit → Undo takes the run back"
                ).replace("%1", summary.headline(duration))
            )
        else:
            self.toolbar.say(lambda: summary.headline(duration))
        self.status_message.emit(headline)

    def _offer_architectures(self, calls) -> None:
        self.toolbar.offer_architectures(calls)
        self.model_calls = self.toolbar.model_calls

    def _on_failed(self, result: ScriptResult) -> None:
        failure = result.failure
        self.output.append_chunks([("stderr", failure.traceback)])
        self.editor.set_failing_line(failure.line)
        self.error_box.show_failure(failure)
        summary = self._apply(result)  # what existed before the error, beside the workspace
        if summary is not None:
            self.captured.show_summary(summary)  # never the previous run's rows
            for note in summary.notes:
                self.output.append_line(note)
        if summary is None or not summary.rows:
            self.toolbar.say(lambda: failed_text(failure.line))
            return
        duration = result.duration_s
        self.toolbar.say(lambda: summary.headline(duration))
        self.status_message.emit(self.status.text())

    def _on_stopped(self, result: ScriptResult) -> None:
        line = result.line
        self.editor.set_failing_line(0)
        self.toolbar.say(lambda: stopped_text(line))
        if line:
            said = QCoreApplication.translate(
                "ScriptPanel", "■ Stopped at line %1; the workspace is as it was before the run"
            )
            self.output.append_line(said.replace("%1", str(line)))
            self.captured.show_nothing(
                lambda: QCoreApplication.translate(
                    "ScriptPanel", "Stopped at line %1: a stopped run's tensors are discarded."
                ).replace("%1", str(line))
            )
            return
        self.output.append_line(
            QCoreApplication.translate(
                "ScriptPanel", "■ Stopped; the workspace is as it was before the run"
            )
        )
        self.captured.show_nothing(
            lambda: QCoreApplication.translate(
                "ScriptPanel", "Stopped: a stopped run's tensors are discarded."
            )
        )

    def _on_syntax_error(self, result: ScriptResult) -> None:
        error = result.syntax_error
        self.output.append_chunks([("stderr", error.report() + "\n")])
        self.editor.set_failing_line(error.line)
        self.error_box.show_syntax_error(error)
        line = str(error.line)
        self.toolbar.say(
            lambda: QCoreApplication.translate(
                "ScriptPanel", "Syntax error on line %1 — nothing ran"
            ).replace("%1", line)
        )
        self.captured.show_nothing(
            lambda: QCoreApplication.translate(
                "ScriptPanel", "Syntax error on line %1: nothing ran."
            ).replace("%1", line)
        )
