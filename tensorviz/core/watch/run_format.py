"""The run folder's byte format (docs/run_format.md): what the recorder writes and the viewer reads.

A run folder holds no pickle: `run.json` (JSON), per rank a folder `rank<R>/` with
`schema.jsonl` and `events.jsonl` (JSON lines) and `steps.tv` / `histograms.tv` (frames). A frame
is self-checking so that a reader following a live file, a file cut by SIGKILL, or a file edited
by hand stops or resynchronises at the first bad byte and keeps everything before:

    b"TV" | u8 format version | u32 payload length | u32 crc32(payload) | payload
    payload = u32 header length | header (JSON, UTF-8) | the header's arrays, little-endian,
              back to back, in the order of header["arrays"] = [[name, dtype, count], ...]

Frames are appended with one write() and flushed, so a reader sees whole frames or a tail it
waits for; nothing is ever rewritten in place.
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass, field

import numpy as np

FORMAT_NAME = "tensorviz-run"
FORMAT_VERSION = 1
RUN_FILE = "run.json"
SCHEMA_FILE = "schema.jsonl"
EVENTS_FILE = "events.jsonl"
STEPS_FILE = "steps.tv"
HISTOGRAMS_FILE = "histograms.tv"
CONTROL_FILE = "control.json"  # viewer → recorder (step_control.py)

MAGIC = b"TV"
_PREFIX = struct.Struct("<2sBII")  # magic, version, payload length, crc32
PREFIX_SIZE = _PREFIX.size
_HEADER_LENGTH = struct.Struct("<I")
MAX_PAYLOAD = 1 << 30  # a length past this is damage, not a frame
_DTYPES = {"f2": np.dtype("<f2"), "f4": np.dtype("<f4"), "f8": np.dtype("<f8"),
           "i8": np.dtype("<i8"), "u4": np.dtype("<u4")}  # fmt: skip


def rank_folder_name(rank: int) -> str:
    return f"rank{rank}"


@dataclass
class Frame:
    """One record: a JSON header and named 1-d NumPy arrays."""

    header: dict
    arrays: dict[str, np.ndarray] = field(default_factory=dict)


def encode_frame(frame: Frame) -> bytes:
    blobs: list[bytes] = []
    listed: list[list] = []
    for name, values in frame.arrays.items():
        array = np.ascontiguousarray(values)
        code = _dtype_code(array.dtype)
        array = array.astype(_DTYPES[code], copy=False).reshape(-1)
        listed.append([name, code, int(array.size)])
        blobs.append(array.tobytes())
    header = dict(frame.header, arrays=listed)
    header_bytes = json.dumps(header, separators=(",", ":"), allow_nan=True).encode()
    payload = b"".join([_HEADER_LENGTH.pack(len(header_bytes)), header_bytes, *blobs])
    return _PREFIX.pack(MAGIC, FORMAT_VERSION, len(payload), zlib.crc32(payload)) + payload


def _dtype_code(dtype: np.dtype) -> str:
    if dtype.kind == "f":
        return {8: "f8", 2: "f2"}.get(dtype.itemsize, "f4")
    if dtype.kind == "u" and dtype.itemsize <= 4:
        return "u4"
    if dtype.kind in "iub":
        return "i8"
    raise TypeError(f"a run frame holds numbers only, not {dtype}")


class FrameDamageError(ValueError):
    """Bytes that are not a whole, intact frame (where a frame should start)."""


def decode_payload(payload: bytes) -> Frame:
    (header_length,) = _HEADER_LENGTH.unpack_from(payload, 0)
    start = _HEADER_LENGTH.size
    header = json.loads(payload[start : start + header_length].decode())
    offset = start + header_length
    arrays: dict[str, np.ndarray] = {}
    for name, code, count in header.pop("arrays", []):
        dtype = _DTYPES[code]
        end = offset + dtype.itemsize * count
        if end > len(payload):
            raise FrameDamageError("array past the frame's end")
        arrays[name] = np.frombuffer(payload, dtype=dtype, count=count, offset=offset)
        offset = end
    return Frame(header, arrays)


@dataclass
class ScanResult:
    """What one pass over new bytes found: whole frames, where to go on, damage seen."""

    frames: list[Frame]
    consumed: int  # bytes of the buffer fully handled (frames and skipped damage)
    damaged_at: list[int]  # buffer offsets where damage began (a resync followed each)


def scan_frames(buffer: bytes, *, final: bool = False) -> ScanResult:
    """The whole frames in `buffer` (bytes read from a frame file, starting at a frame boundary).

    An incomplete frame at the end is left unconsumed (a live writer will finish it), unless
    `final` (the writer is known to have ended): then it is damage too. A frame whose magic,
    length or CRC is wrong is damage: scanning resumes at the next b"TV" that starts an intact
    frame, so one edited byte loses one frame, never the rest of the file.
    """
    frames: list[Frame] = []
    damaged: list[int] = []
    position = 0
    size = len(buffer)
    while position < size:
        if size - position < PREFIX_SIZE:
            break
        magic, version, length, crc = _PREFIX.unpack_from(buffer, position)
        intact = magic == MAGIC and version == FORMAT_VERSION and length <= MAX_PAYLOAD
        if intact and position + PREFIX_SIZE + length > size:
            break  # a tail still being written (or cut: decided by `final` below)
        if intact:
            payload = buffer[position + PREFIX_SIZE : position + PREFIX_SIZE + length]
            if zlib.crc32(payload) == crc:
                try:
                    frames.append(decode_payload(payload))
                    position += PREFIX_SIZE + length
                    continue
                except (ValueError, KeyError, UnicodeDecodeError, struct.error):
                    pass
        damaged.append(position)
        following = buffer.find(MAGIC, position + 1)
        position = following if following >= 0 else size
    if final and position < size:
        damaged.append(position)
        position = size
    return ScanResult(frames, position, damaged)


def json_line(record: dict) -> bytes:
    return (json.dumps(record, separators=(",", ":"), allow_nan=True) + "\n").encode()


def parse_json_lines(buffer: bytes) -> tuple[list[dict], int, int]:
    """Whole lines of `buffer` as records: (records, bytes consumed, lines that were not JSON
    objects). An unfinished last line is left for the next read."""
    records: list[dict] = []
    bad = 0
    consumed = buffer.rfind(b"\n") + 1
    for line in buffer[:consumed].splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line.decode())
        except (ValueError, UnicodeDecodeError):
            bad += 1
            continue
        if isinstance(record, dict):
            records.append(record)
        else:
            bad += 1
    return records, consumed, bad
