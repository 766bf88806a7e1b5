"""Statistics of an open file on demand (Statistics, Ctrl+I): computed entry by entry in a worker,
with progress, cancel and stale reports dropped by generation (FilesPanel mixes this in)."""

from __future__ import annotations

from tensorviz.ui.files.file_jobs import StatisticsJob


class StatisticsOnDemand:
    """Needs the panel's model, progress, _pool, _relay, _statistics_job, _statistics_generation,
    status_message, statistics_finished, _show_details and _update_actions."""

    def compute_statistics(self) -> None:
        inspection = self.model.inspection
        if inspection is None or self._statistics_job is not None:
            return
        if changed := inspection.changed_on_disk():
            self.status_message.emit(changed)
            return
        self._statistics_generation += 1
        self._statistics_job = StatisticsJob(inspection, self._statistics_generation, self._relay)
        self.progress.setRange(0, len(inspection.entries))
        self.progress.setValue(0)
        self._pool.start(self._statistics_job)
        self._update_actions()

    def _stop_statistics(self) -> None:
        if self._statistics_job is not None:
            self._statistics_job.cancelled.set()
            self._statistics_generation += 1  # its remaining reports are dropped
            self._statistics_job = None
            self.statistics_finished.emit(True)

    def _on_statistics_progressed(self, generation: int, done: int, total: int) -> None:
        if generation == self._statistics_generation:
            self.progress.setRange(0, total)
            self.progress.setValue(done)

    def _on_statistic_computed(self, generation: int, access: tuple, text: str) -> None:
        if generation == self._statistics_generation:
            self.model.set_statistics(access, text)

    def _on_statistics_finished(self, generation: int, cancelled: bool) -> None:
        if generation != self._statistics_generation:
            return
        self._statistics_job = None
        self._show_details()
        self._update_actions()
        self.statistics_finished.emit(cancelled)

    def _on_statistics_failed(self, generation: int, message: str) -> None:
        if generation == self._statistics_generation:
            self.status_message.emit(message)
            self._on_statistics_finished(generation, True)
