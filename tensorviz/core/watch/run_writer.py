"""Writing one rank's streams of a run folder (the format: run_format.py).

Every append is one write() of whole frames or lines followed by a flush, so a reader never sees
half a record except at the tail it waits for, and a SIGKILL loses at most the record being
written. Files are opened in append mode and never rewritten; run.json is written atomically.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np

from tensorviz.core.atomic_files import write_text_atomically
from tensorviz.core.watch import run_format as rf


def write_run_file(folder: Path, **fields) -> None:
    record = {"format": rf.FORMAT_NAME, "version": rf.FORMAT_VERSION, **fields}
    write_text_atomically(folder / rf.RUN_FILE, json.dumps(record, indent=1))


class RankStreamWriter:
    """The files of one rank: schema.jsonl, events.jsonl, steps.tv, histograms.tv."""

    def __init__(self, run_folder: Path, rank: int = 0):
        self.folder = Path(run_folder) / rf.rank_folder_name(rank)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.rank = rank
        self._files = {
            name: open(self.folder / name, "ab")  # noqa: SIM115 (held open for the run)
            for name in (rf.SCHEMA_FILE, rf.EVENTS_FILE, rf.STEPS_FILE, rf.HISTOGRAMS_FILE)
        }
        self.bytes_written = 0

    def _append(self, name: str, data: bytes) -> None:
        handle = self._files[name]
        handle.write(data)
        handle.flush()
        self.bytes_written += len(data)

    def append_bytes(self, name: str, data: bytes) -> None:
        """Bytes already encoded (whole frames or lines) appended to the rank's file `name`."""
        self._append(name, data)

    def write_schema(self, schema: dict) -> None:
        """One schema version: {"schema": v, "params": [...], "modules": [...], ...}."""
        self._append(rf.SCHEMA_FILE, rf.json_line(schema))

    def write_event(self, event: str, **fields) -> None:
        self._append(rf.EVENTS_FILE, rf.json_line({"event": event, "time": time.time(), **fields}))

    def write_step(self, header: dict, arrays: dict[str, np.ndarray]) -> None:
        self._append(rf.STEPS_FILE, rf.encode_frame(rf.Frame(dict(header, kind="step"), arrays)))

    def write_histograms(self, header: dict, counts: np.ndarray) -> None:
        frame = rf.Frame(dict(header, kind="histograms"), {"counts": counts.astype(np.uint32)})
        self._append(rf.HISTOGRAMS_FILE, rf.encode_frame(frame))

    def sync(self) -> None:
        for handle in self._files.values():
            if not handle.closed:
                handle.flush()
                os.fsync(handle.fileno())

    def close(self) -> None:
        for handle in self._files.values():
            if not handle.closed:
                handle.close()
