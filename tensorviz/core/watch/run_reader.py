"""Reading a run folder, live or finished (the format: run_format.py).

`RunReader.refresh()` reads only the bytes appended since the last call, so a viewer can follow
a run at 100 steps/s. A tail still being written is left for the next refresh; damage (a byte
edited by hand, a file cut) becomes one sentence in `problems` and costs only the frames it hit.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tensorviz.core.translation import _
from tensorviz.core.watch import run_format as rf
from tensorviz.core.watch.series_table import SeriesTable

STEP_TABLES = ("grad_norm", "weight_norm", "update_ratio")
MODULE_TABLES = ("act_mean", "act_std", "act_fraction")


class NotARunFolderError(ValueError):
    """The path is no run folder: the message is one sentence for the user."""


@dataclass
class HistogramRecord:
    step: int
    row: int  # the step's row in the rank's tables (-1 if that step is not read yet)
    bins: int
    tensors: list[tuple[str, str, float, float]]  # (kind, name, low, high)
    counts: np.ndarray  # len(tensors) × bins


@dataclass
class RankSeries:
    """Everything one rank wrote, as arrays that grow with each refresh."""

    rank: int
    steps: list[int] = field(default_factory=list)
    optimizers: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    loss: list[float] = field(default_factory=list)
    scalars: SeriesTable = field(default_factory=lambda: SeriesTable(np.float64))
    tables: dict[str, SeriesTable] = field(
        default_factory=lambda: {name: SeriesTable() for name in STEP_TABLES + MODULE_TABLES}
    )
    schemas: dict[int, dict] = field(default_factory=dict)
    param_info: dict[str, dict] = field(default_factory=dict)  # name → shape, dtype, module
    module_info: dict[str, dict] = field(default_factory=dict)  # name → type, kind
    non_finite: list[dict] = field(default_factory=list)  # {step, row, what, name, count}
    histograms: list[HistogramRecord] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    dropped: int = 0
    row_of_step: dict[tuple[int, int], int] = field(default_factory=dict)  # (optimizer, step)

    @property
    def param_names(self) -> list[str]:
        return self.tables["grad_norm"].names

    @property
    def module_names(self) -> list[str]:
        return self.tables["act_mean"].names

    @property
    def ended(self) -> dict | None:
        return next((e for e in reversed(self.events) if e.get("event") == "ended"), None)


class _FileFollower:
    """Reads what was appended to one file since the last call."""

    def __init__(self, path: Path):
        self.path = path
        self.offset = 0
        self.pending = b""

    def new_bytes(self) -> bytes:
        try:
            with open(self.path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size < self.offset:  # cut shorter by hand: read what is there anew
                    return b""
                handle.seek(self.offset)
                data = handle.read(size - self.offset)
        except FileNotFoundError:
            return b""
        self.offset += len(data)
        self.pending += data
        return self.pending

    def keep_from(self, consumed: int) -> None:
        self.pending = self.pending[consumed:]


class RunReader:
    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)
        self.info = read_run_file(self.folder)
        self.ranks: dict[int, RankSeries] = {}
        self.problems: list[str] = []
        self._followers: dict[tuple[int, str], _FileFollower] = {}
        self.refresh()

    @property
    def name(self) -> str:
        return self.info.get("name") or self.folder.name

    @property
    def ended(self) -> bool:
        """Every rank that wrote has said it ended (finished, raised, or was stopped)."""
        return bool(self.ranks) and all(r.ended is not None for r in self.ranks.values())

    def refresh(self, *, final: bool | None = None) -> bool:
        """Read what was appended; True when anything new arrived. `final`: treat an unfinished
        tail as damage (default: when the run said it ended)."""
        new = False
        for rank in self._rank_numbers():
            series = self.ranks.setdefault(rank, RankSeries(rank))
            new |= self._read_lines(rank, rf.SCHEMA_FILE, series, self._on_schema)
            new |= self._read_lines(rank, rf.EVENTS_FILE, series, self._on_event)
            finished = series.ended is not None if final is None else final
            new |= self._read_frames(rank, rf.STEPS_FILE, series, finished)
            new |= self._read_frames(rank, rf.HISTOGRAMS_FILE, series, finished)
        return new

    def _rank_numbers(self) -> list[int]:
        numbers = []
        for entry in self.folder.glob("rank*"):
            digits = entry.name[4:]
            if entry.is_dir() and digits.isdigit():
                numbers.append(int(digits))
        return sorted(numbers)

    def _follower(self, rank: int, name: str) -> _FileFollower:
        key = (rank, name)
        if key not in self._followers:
            path = self.folder / rf.rank_folder_name(rank) / name
            self._followers[key] = _FileFollower(path)
        return self._followers[key]

    def _read_lines(self, rank, name, series, handle) -> bool:
        follower = self._follower(rank, name)
        data = follower.new_bytes()
        if not data:
            return False
        records, consumed, bad = rf.parse_json_lines(data)
        follower.keep_from(consumed)
        if bad:
            self._problem(
                _("{file} of rank {rank} has {count} line(s) that are not JSON records; they "
                  "were skipped.").format(file=name, rank=rank, count=bad)
            )  # fmt: skip
        for record in records:
            handle(series, record)
        return bool(records)

    def _read_frames(self, rank, name, series, final: bool) -> bool:
        follower = self._follower(rank, name)
        data = follower.new_bytes()
        if not data:
            return False
        result = rf.scan_frames(data, final=final)
        follower.keep_from(result.consumed)
        if result.damaged_at:
            self._problem(
                _("{file} of rank {rank} is damaged at byte {offset} (edited or cut short); "
                  "the records before it and every intact one after it are kept.").format(
                    file=name, rank=rank,
                    offset=follower.offset - len(data) + result.damaged_at[0])
            )  # fmt: skip
        for frame in result.frames:
            if frame.header.get("kind") == "step":
                self._on_step(series, frame)
            elif frame.header.get("kind") == "histograms":
                self._on_histograms(series, frame)
        return bool(result.frames)

    def _problem(self, sentence: str) -> None:
        if sentence not in self.problems:
            self.problems.append(sentence)

    @staticmethod
    def _on_schema(series: RankSeries, record: dict) -> None:
        version = record.get("schema")
        if not isinstance(version, int):
            return
        series.schemas[version] = record
        for param in record.get("params", []):
            series.param_info.setdefault(param["name"], param)
        for module in record.get("modules", []):
            series.module_info.setdefault(module["name"], module)

    @staticmethod
    def _on_event(series: RankSeries, record: dict) -> None:
        series.events.append(record)

    def _on_step(self, series: RankSeries, frame: rf.Frame) -> None:
        header = frame.header
        schema = series.schemas.get(header.get("schema"))
        if schema is None:
            self._problem(_("a step names a schema that schema.jsonl lacks; it was skipped."))
            return
        params = [p["name"] for p in schema.get("params", [])]
        modules = [m["name"] for m in schema.get("modules", [])]
        row = len(series.steps)
        series.steps.append(int(header.get("step", row + 1)))
        series.optimizers.append(int(header.get("optimizer", 0)))
        series.row_of_step[(series.optimizers[-1], series.steps[-1])] = row
        series.times.append(float(header.get("time", 0.0)))
        loss = header.get("loss")
        series.loss.append(float(loss) if loss is not None else float("nan"))
        series.dropped = max(series.dropped, int(header.get("dropped", 0)))
        for table_names, names in ((STEP_TABLES, params), (MODULE_TABLES, modules)):
            for table_name in table_names:
                table = series.tables[table_name]
                values = frame.arrays.get(table_name)
                if values is not None and len(values) == len(names):
                    table.append_row(table.columns_for(names), values)
                else:
                    table.columns_for(names)
                    table.append_row()
        scalars = header.get("scalars") or {}
        names = list(scalars)
        series.scalars.append_row(
            series.scalars.columns_for(names),
            np.array([_number(scalars[n]) for n in names], dtype=np.float64),
        )
        for what, counts in (header.get("non_finite") or {}).items():
            names = params if what in ("grad", "weight") else modules
            for index, count in counts.items():
                if int(index) < len(names):
                    series.non_finite.append(
                        {"step": series.steps[-1], "row": row, "what": what,
                         "name": names[int(index)], "count": int(count)}
                    )  # fmt: skip

    @staticmethod
    def _on_histograms(series: RankSeries, frame: rf.Frame) -> None:
        header = frame.header
        bins = int(header.get("bins", 0))
        tensors = [tuple(t[:4]) for t in header.get("tensors", [])]
        counts = frame.arrays.get("counts", np.zeros(0, np.uint32))
        if bins <= 0 or counts.size != bins * len(tensors):
            return
        step = int(header.get("step", 0))
        row = series.row_of_step.get((int(header.get("optimizer", 0)), step), -1)
        series.histograms.append(
            HistogramRecord(step, row, bins, tensors, counts.reshape(len(tensors), bins))
        )


def _number(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def read_run_file(folder: Path) -> dict:
    """run.json's fields, or NotARunFolderError: one sentence saying what the path is instead."""
    if not folder.is_dir():
        raise NotARunFolderError(
            _("{path} is not a folder, so it is no run folder.").format(path=folder)
        )
    path = folder / rf.RUN_FILE
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotARunFolderError(
            _("{path} is no run folder: it has no run.json (`tensorviz watch` and "
              "`tensorviz.watch()` make run folders).").format(path=folder)
        ) from None  # fmt: skip
    except (OSError, ValueError, UnicodeDecodeError) as error:
        raise NotARunFolderError(
            _("{path}'s run.json cannot be read ({error}).").format(path=folder, error=error)
        ) from None
    if not isinstance(info, dict) or info.get("format") != rf.FORMAT_NAME:
        raise NotARunFolderError(_("{path}'s run.json is not a tensorviz run.").format(path=folder))
    if int(info.get("version", 0)) > rf.FORMAT_VERSION:
        raise NotARunFolderError(
            _("{path} was written by a newer tensorviz (run format {version}); update tensorviz "
              "to open it.").format(path=folder, version=info.get("version"))
        )  # fmt: skip
    return info


def is_run_folder(path: str | os.PathLike) -> bool:
    try:
        read_run_file(Path(path))
    except NotARunFolderError:
        return False
    return True
