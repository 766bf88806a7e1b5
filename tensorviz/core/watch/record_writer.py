"""The writer thread: the user's loop hands records over through a bounded queue and never
waits on the disk. A full queue (a disk slower than the loop) drops the record and counts it;
the count goes into every later step header as `dropped`."""

from __future__ import annotations

import queue
import sys
import threading

from tensorviz.core.translation import _
from tensorviz.core.watch.run_writer import RankStreamWriter

QUEUE_RECORDS = 512
_STOP = ("stop",)


class RecordWriter:
    def __init__(self, stream: RankStreamWriter, capacity: int = QUEUE_RECORDS):
        self.stream = stream
        self.dropped = 0
        self.failed: str | None = None  # the first write error, said once on stderr
        self._queue: queue.Queue = queue.Queue(maxsize=capacity)
        self._thread = threading.Thread(
            target=self._write_all, name="tensorviz-watch-writer", daemon=True
        )
        self._thread.start()

    def put(self, record: tuple) -> bool:
        """Hand a record over without waiting; False (and counted) when the queue is full."""
        try:
            self._queue.put_nowait(record)
            return True
        except queue.Full:
            self.dropped += 1
            return False

    def put_waiting(self, record: tuple, timeout: float = 5.0) -> bool:
        """For the few records a reader needs (schemas, events): wait a little for room."""
        try:
            self._queue.put(record, timeout=timeout)
            return True
        except queue.Full:
            self.dropped += 1
            return False

    def _write_all(self) -> None:
        while True:
            record = self._queue.get()
            if record is _STOP:
                return
            try:
                self._write(record)
            except (OSError, ValueError, TypeError) as error:
                if self.failed is None:
                    self.failed = str(error)
                    print(
                        _("tensorviz: the run folder cannot be written ({error}); training goes "
                          "on unrecorded.").format(error=error),
                        file=sys.stderr,
                    )  # fmt: skip
                self.dropped += 1

    def _write(self, record: tuple) -> None:
        kind = record[0]
        if kind == "step":
            self.stream.write_step(record[1], record[2])
        elif kind == "histograms":
            self.stream.write_histograms(record[1], record[2])
        elif kind == "schema":
            self.stream.write_schema(record[1])
        elif kind == "event":
            self.stream.write_event(record[1], **record[2])

    def close(self, timeout: float = 30.0) -> None:
        """Write what is queued, then close the files."""
        if self._thread.is_alive():
            try:
                self._queue.put(_STOP, timeout=timeout)
            except queue.Full:
                pass
            self._thread.join(timeout)
        self.stream.close()
