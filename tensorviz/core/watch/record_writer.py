"""The writer thread: the user's loop hands records over and never waits on the disk, nor on a
lock the writer holds. Records go into a deque (an append is atomic in CPython, no lock taken)
that the writer empties every few milliseconds; a deque holding `capacity` records (a disk
slower than the loop) drops the record and counts it; the count goes into later step headers
as `dropped`. ("call", fn) records run fn() here, off the loop's thread, and write what it
returns."""

from __future__ import annotations

import collections
import sys
import threading
import time

from tensorviz.core.translation import _
from tensorviz.core.watch.run_writer import RankStreamWriter

QUEUE_RECORDS = 512
POLL_SECONDS = 0.005


class RecordWriter:
    def __init__(self, stream: RankStreamWriter, capacity: int = QUEUE_RECORDS):
        self.stream = stream
        self.capacity = capacity
        self.dropped = 0
        self.failed: str | None = None  # the first write error, said once on stderr
        self._records: collections.deque = collections.deque()
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._write_all, name="tensorviz-watch-writer", daemon=True
        )
        self._thread.start()

    def put(self, record: tuple) -> bool:
        """Hand a record over without waiting; False (and counted) when the writer is behind."""
        if len(self._records) >= self.capacity:
            self.dropped += 1
            return False
        self._records.append(record)
        return True

    def put_waiting(self, record: tuple, timeout: float = 5.0) -> bool:
        """For the few records a reader needs (schemas, events): wait a little for room."""
        deadline = time.monotonic() + timeout
        while len(self._records) >= self.capacity and self._thread.is_alive():
            if time.monotonic() > deadline:
                self.dropped += 1
                return False
            time.sleep(POLL_SECONDS)
        self._records.append(record)
        return True

    def _write_all(self) -> None:
        records = self._records
        while True:
            if not records:
                if self._stopping.is_set():
                    return
                self._stopping.wait(POLL_SECONDS)
                continue
            record = records.popleft()
            try:
                self._write(record)
            except Exception as error:  # noqa: BLE001 (the loop must never lose its writer)
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
        if kind == "call":
            for made in record[1]() or ():
                self._write(made)
        elif kind == "step":
            self.stream.write_step(record[1], record[2])
        elif kind == "histograms":
            self.stream.write_histograms(record[1], record[2])
        elif kind == "schema":
            self.stream.write_schema(record[1])
        elif kind == "event":
            self.stream.write_event(record[1], **record[2])

    def close(self, timeout: float = 30.0) -> None:
        """Write what is queued, then close the files."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        self.stream.close()
