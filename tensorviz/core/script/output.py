"""What a running script prints, in order, without letting an endless print loop eat memory.

While at least one script runs, sys.stdout and sys.stderr are thread-routed proxies: a write from
a script's thread goes to that run's ScriptOutput; a write from any other thread (the GUI, pytest)
goes to the original stream. warnings.showwarning is routed the same way, so `warnings.warn` and
torch's warnings land in the same ordered queue as `print` even where something else (pytest)
records warnings. Everything is restored when the last run ends.
"""

from __future__ import annotations

import sys
import threading
import warnings
from collections import deque
from contextlib import contextmanager

from tensorviz.core.script.source import SCRIPT_FILENAME, current_script_line

MAX_KEPT_CHARS = 1_000_000  # the newest megabyte of output is kept; older text is dropped
MAX_DRAIN_CHARS = 64_000  # at most this much is handed to the screen per drain


class ScriptOutput:
    """A thread-safe, capped, ordered queue of (stream, text) chunks; stream is stdout|stderr."""

    def __init__(self, max_chars: int = MAX_KEPT_CHARS) -> None:
        self.script_filename = SCRIPT_FILENAME  # its warnings name the script's line in this file
        self._chunks: deque[tuple[str, str]] = deque()
        self._chars = 0
        self._max_chars = max_chars
        self._lock = threading.Lock()
        self.dropped_chars = 0  # dropped since the last drain
        self.total_dropped = 0
        self.closed_streams: set[str] = set()  # closed by the script (its own view only)

    def write(self, stream: str, text: str) -> None:
        if not text:
            return
        with self._lock:
            if self._chunks and self._chunks[-1][0] == stream and len(self._chunks[-1][1]) < 4096:
                self._chunks[-1] = (stream, self._chunks[-1][1] + text)
            else:
                self._chunks.append((stream, text))
            self._chars += len(text)
            self._keep_newest(self._max_chars)

    def _keep_newest(self, limit: int) -> None:
        """Drop the oldest text beyond `limit` characters, cutting into a chunk where needed, so
        the newest `limit` at most are kept, from a line's start when the cut chunk has one
        (one 10 MB print keeps its last megabyte)."""
        while self._chars > limit and self._chunks:
            stream, text = self._chunks[0]
            excess = self._chars - limit
            if len(text) <= excess:
                self._chunks.popleft()
                dropped = len(text)
            else:  # from the start of a line when there is one: no half line at the top
                newline = text.find("\n", excess - 1, len(text) - 1)
                dropped = newline + 1 if newline >= 0 else excess
                self._chunks[0] = (stream, text[dropped:])
            self._chars -= dropped
            self.dropped_chars += dropped
            self.total_dropped += dropped

    def drain(self, max_chars: int = MAX_DRAIN_CHARS) -> tuple[list[tuple[str, str]], int]:
        """The chunks written since the last drain (newest `max_chars` at most), and how many
        characters were skipped since the last drain: beyond the kept megabyte, or because the
        script printed faster than anyone can read."""
        with self._lock:
            self._keep_newest(max_chars)
            chunks = list(self._chunks)
            self._chunks.clear()
            self._chars = 0
            dropped, self.dropped_chars = self.dropped_chars, 0
        return chunks, dropped

    def close_stream(self, stream: str) -> None:
        """The script closed sys.stdout or sys.stderr: its later writes fail, as in Python."""
        self.closed_streams.add(stream)

    def text(self) -> str:
        """Everything still queued, both streams, in order (tests and the CLI)."""
        with self._lock:
            return "".join(text for _stream, text in self._chunks)


class _RoutedStream:
    def __init__(self, original, stream: str) -> None:
        self.original = original
        self.stream = stream

    def write(self, text) -> int:
        sink = _SINKS.get(threading.get_ident())
        if sink is None:
            return self.original.write(text)
        if self.stream in sink.closed_streams:
            raise ValueError("I/O operation on closed file.")
        sink.write(self.stream, str(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        sink = _SINKS.get(threading.get_ident())
        if sink is not None and self.stream in sink.closed_streams:
            raise ValueError("I/O operation on closed file.")
        if sink is None and self.original is not None:
            self.original.flush()

    def close(self) -> None:
        """A script's close() closes its own output, never the app's terminal: the CLI still
        prints the results, the GUI keeps its streams."""
        sink = _SINKS.get(threading.get_ident())
        if sink is None:
            self.original.close()
        else:
            sink.close_stream(self.stream)

    @property
    def closed(self) -> bool:
        sink = _SINKS.get(threading.get_ident())
        if sink is None:
            return self.original.closed
        return self.stream in sink.closed_streams

    def isatty(self) -> bool:
        return False

    def __getattr__(self, name):  # encoding, fileno, ... of the real stream
        return getattr(self.original, name)


_SINKS: dict[int, ScriptOutput] = {}
_LOCK = threading.Lock()
_INSTALLED: dict[str, object] = {}


def _routed_showwarning(message, category, filename, lineno, file=None, line=None) -> None:
    sink = _SINKS.get(threading.get_ident())
    if sink is None:
        return _INSTALLED["showwarning"](message, category, filename, lineno, file, line)
    script = sink.script_filename
    if filename != script:  # raised inside torch: the user's line is what matters
        script_line = current_script_line(sys._getframe(), script)
        if script_line:
            filename, lineno, line = script, script_line, ""
    sink.write("stderr", warnings.formatwarning(message, category, filename, lineno, line))


def _install() -> None:
    _INSTALLED["stdout"], _INSTALLED["stderr"] = sys.stdout, sys.stderr
    _INSTALLED["showwarning"] = warnings.showwarning
    sys.stdout = _RoutedStream(sys.stdout, "stdout")
    sys.stderr = _RoutedStream(sys.stderr, "stderr")
    warnings.showwarning = _routed_showwarning


def _uninstall() -> None:
    sys.stdout, sys.stderr = _INSTALLED.pop("stdout"), _INSTALLED.pop("stderr")
    if warnings.showwarning is _routed_showwarning:
        warnings.showwarning = _INSTALLED["showwarning"]
    _INSTALLED.pop("showwarning")


@contextmanager
def captured_output(output: ScriptOutput):
    """Route this thread's stdout, stderr and warnings into `output` for the block's duration."""
    ident = threading.get_ident()
    with _LOCK:
        if not _SINKS:
            _install()
        _SINKS[ident] = output
    try:
        yield output
    finally:
        with _LOCK:
            _SINKS.pop(ident, None)
            if not _SINKS:
                _uninstall()


def output_is_routed() -> bool:
    """True while some run's output capture is installed (tests check it is never left on)."""
    return bool(_SINKS) or isinstance(sys.stdout, _RoutedStream)
