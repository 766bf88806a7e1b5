"""The writer thread: the user's loop hands over bytes and never waits on the disk. Records are
encoded on the loop's thread (a frame or a JSON line: tens of microseconds) and the bytes go
into a deque (an append is atomic in CPython, no lock taken) that the writer thread empties
every few milliseconds; all it does is write() and flush(), which release the GIL. (Encoding
or computing there instead made the loop wait for the GIL each time a torch call of its own
had let go of it: on a CPU nanoGPT that cost more than the work itself.) A deque holding
`capacity` records (a disk slower than the loop) drops the record and counts it; the count
goes into later step headers as `dropped`."""

from __future__ import annotations

import collections
import sys
import threading
import time

from tensorviz.core.translation import _
from tensorviz.core.watch import run_format as rf
from tensorviz.core.watch.run_writer import RankStreamWriter

QUEUE_RECORDS = 512
POLL_SECONDS = 0.005


def encoded(record: tuple) -> tuple[str, bytes]:
    """(file name, bytes) of ("step", header, arrays), ("histograms", header, counts),
    ("schema", schema) or ("event", name, fields)."""
    kind = record[0]
    if kind == "step":
        frame = rf.Frame(dict(record[1], kind="step"), record[2])
        return rf.STEPS_FILE, rf.encode_frame(frame)
    if kind == "histograms":
        counts = record[2].astype("<u4", copy=False)
        frame = rf.Frame(dict(record[1], kind="histograms"), {"counts": counts})
        return rf.HISTOGRAMS_FILE, rf.encode_frame(frame)
    if kind == "schema":
        return rf.SCHEMA_FILE, rf.json_line(record[1])
    if kind == "event":
        return rf.EVENTS_FILE, rf.json_line({"event": record[1], "time": time.time(),
                                             **record[2]})  # fmt: skip
    raise ValueError(f"no such record kind: {kind}")


class RecordWriter:
    def __init__(self, stream: RankStreamWriter, capacity: int = QUEUE_RECORDS):
        self.stream = stream
        self.capacity = capacity
        self.dropped = 0
        self.failed: str | None = None  # the first write error, said once on stderr
        self._chunks: collections.deque = collections.deque()
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._write_all, name="tensorviz-watch-writer", daemon=True
        )
        self._thread.start()

    def put(self, record: tuple) -> bool:
        """Hand a record over without waiting; False (and counted) when the writer is behind."""
        if len(self._chunks) >= self.capacity:
            self.dropped += 1
            return False
        self._chunks.append(encoded(record))
        return True

    def put_waiting(self, record: tuple, timeout: float = 5.0) -> bool:
        """For the few records a reader needs (schemas, events): wait a little for room."""
        deadline = time.monotonic() + timeout
        while len(self._chunks) >= self.capacity and self._thread.is_alive():
            if time.monotonic() > deadline:
                self.dropped += 1
                return False
            time.sleep(POLL_SECONDS)
        self._chunks.append(encoded(record))
        return True

    def _write_all(self) -> None:
        chunks = self._chunks
        while True:
            if not chunks:
                if self._stopping.is_set():
                    return
                self._stopping.wait(POLL_SECONDS)
                continue
            name, data = chunks.popleft()
            try:
                self.stream.append_bytes(name, data)
            except Exception as error:  # noqa: BLE001 (the loop must never lose its writer)
                if self.failed is None:
                    self.failed = str(error)
                    print(
                        _("tensorviz: the run folder cannot be written ({error}); training goes "
                          "on unrecorded.").format(error=error),
                        file=sys.stderr,
                    )  # fmt: skip
                self.dropped += 1

    def close(self, timeout: float = 30.0) -> None:
        """Write what is queued, then close the files."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        self.stream.close()
