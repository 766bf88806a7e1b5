"""Where a watched loop stands — waiting, running at step N, paused at step N, ended — for the
step control bar: read from each rank's events.jsonl and the last frame of its steps.tv.

`LoopFollower` reads little: only the events appended since its last look, and, when a steps.tv
grew, its tail (the last whole frame's header), never the whole file, so a bar following a run of
a million steps in the GUI thread costs a few small reads per refresh. `loop_state(ranks)` gives
the same answer from a RunReader's ranks.
"""

from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from tensorviz.core.watch import run_format as rf

TAIL_START = 1 << 18  # the tail first read for the last frame; doubled while none is whole in it
TAIL_MOST = 1 << 26
_PREFIX = struct.Struct("<2sBII")  # a frame's prefix, as run_format writes it
assert _PREFIX.size == rf.PREFIX_SIZE


@dataclass(frozen=True)
class LoopState:
    """Where the watched loop stands, read from its events and steps."""

    state: str  # "waiting" (no step yet), "running", "paused", "ended"
    step: int = 0  # the step paused at, or the latest step seen
    status: str = ""  # "ended": finished | error | interrupted


def loop_state_of(events: dict[int, list[dict]], latest: dict[int, int]) -> LoopState:
    """From each rank's events and latest step: paused when a rank's last "paused" has no
    "resumed" (or "ended") after it; ended when every rank said so."""
    if not events and not latest:
        return LoopState("waiting")
    step_seen, paused_at, ended = max(latest.values(), default=0), None, {}
    ranks = set(events) | set(latest)
    for rank in ranks:
        held = None
        for event in events.get(rank, ()):
            kind, step = event.get("event"), event.get("step")
            if isinstance(step, int) and not isinstance(step, bool):
                step_seen = max(step_seen, step)
            if kind == "paused" and isinstance(step, int):
                held = step
            elif kind in ("resumed", "ended"):
                held = None
            if kind == "ended":
                ended[rank] = event
        if held is not None:
            paused_at = held if paused_at is None else min(paused_at, held)
    if ended and len(ended) == len(ranks):
        status = next(iter(ended.values())).get("status") or "finished"
        return LoopState("ended", step_seen, str(status))
    if paused_at is not None:
        return LoopState("paused", paused_at)
    return LoopState("running" if step_seen else "waiting", step_seen)


def loop_state(ranks) -> LoopState:
    """The same, from RunReader.ranks (RankSeries by rank)."""
    return loop_state_of(
        {rank: series.events for rank, series in ranks.items()},
        {rank: series.steps[-1] for rank, series in ranks.items() if series.steps},
    )


@dataclass
class _RankFiles:
    events: list[dict] = field(default_factory=list)
    events_offset: int = 0
    events_pending: bytes = b""
    steps_size: int = 0
    latest: int = 0


class LoopFollower:
    """Follows a run folder's events and latest steps, reading only what is new."""

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)
        self._ranks: dict[int, _RankFiles] = {}

    def refresh(self) -> LoopState:
        for entry in self.folder.glob("rank*"):
            digits = entry.name[4:]
            if entry.is_dir() and digits.isdigit():
                rank = self._ranks.setdefault(int(digits), _RankFiles())
                self._read_events(entry / rf.EVENTS_FILE, rank)
                self._read_latest_step(entry / rf.STEPS_FILE, rank)
        return loop_state_of(
            {r: files.events for r, files in self._ranks.items()},
            {r: files.latest for r, files in self._ranks.items() if files.latest},
        )

    @staticmethod
    def _read_events(path: Path, rank: _RankFiles) -> None:
        try:
            with open(path, "rb") as handle:
                handle.seek(rank.events_offset)
                data = handle.read()
        except OSError:
            return
        rank.events_offset += len(data)
        records, consumed, _bad = rf.parse_json_lines(rank.events_pending + data)
        rank.events_pending = (rank.events_pending + data)[consumed:]
        rank.events.extend(records)

    @staticmethod
    def _read_latest_step(path: Path, rank: _RankFiles) -> None:
        try:
            size = os.stat(path).st_size
        except OSError:
            return
        if size == rank.steps_size:
            return
        rank.steps_size = size
        step = last_step_in(path, size)
        if step is not None:
            rank.latest = step


def last_step_in(path: Path, size: int) -> int | None:
    """The step of the last whole step frame of a steps.tv, read from its tail."""
    tail = TAIL_START
    while True:
        start = max(0, size - tail)
        try:
            with open(path, "rb") as handle:
                handle.seek(start)
                data = handle.read(size - start)
        except OSError:
            return None
        position = len(data)
        while (position := data.rfind(rf.MAGIC, 0, position)) >= 0:
            frame = whole_frame_at(data, position)  # the last one that starts, from the end
            if frame is not None and frame.header.get("kind", "step") == "step":
                step = frame.header.get("step")
                if isinstance(step, int):
                    return step
        if start == 0 or tail >= TAIL_MOST:
            return None
        tail *= 2


def whole_frame_at(data: bytes, position: int) -> rf.Frame | None:
    """The frame starting at `position` when it is whole and intact (a b"TV" among a frame's
    numbers is none: its version, length or CRC is wrong); None otherwise."""
    if len(data) - position < rf.PREFIX_SIZE:
        return None
    magic, version, length, crc = _PREFIX.unpack_from(data, position)
    end = position + rf.PREFIX_SIZE + length
    if magic != rf.MAGIC or version != rf.FORMAT_VERSION or end > len(data):
        return None
    payload = data[position + rf.PREFIX_SIZE : end]
    if zlib.crc32(payload) != crc:
        return None
    try:
        return rf.decode_payload(payload)
    except (ValueError, KeyError, UnicodeDecodeError, struct.error):
        return None
