"""Files are written atomically: into a temporary file beside the target, synced to disk, moved
over the target with os.replace, then the folder synced. A reader never sees a half-written file,
a failure or a kill leaves the old file, and a power cut cannot undo the rename.

A save behaves like a plain open() in everything else a user notices:
  * the file's mode is the one open() gives: an existing file keeps its mode, a new one gets
    0o666 less the umask (not the 0600 of the temporary, which made every export private);
  * saving to a symbolic link writes through to the file it points to (as editors do), instead
    of replacing the link with a file.

Temporaries are named `.NAME.tensorviz-PID-RANDOM.tmp` and locked (flock) while written. A save
first removes the stale temporaries of that folder — ours by name, unlocked, and left by a
process that no longer runs, or by this process but not being written now — so a save killed
mid-way leaves nothing behind after the next one. A failed save removes its own temporary and
sweeps the same way. A temporary that another live save is writing is never touched.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

try:
    import fcntl
except ImportError:  # not POSIX: no locks, so no sweeping either (see remove_stale_temporaries)
    fcntl = None

TEMPORARY_MARK = ".tensorviz-"
_TEMPORARY_NAME = re.compile(r"^\..*\.tensorviz-(?P<pid>\d+)-[^./]+\.tmp$", re.DOTALL)
# NAME_MAX is 255 on common filesystems; the mark, pid and random part take about 40.
_NAME_KEPT = 180

_writing: set[str] = set()  # temporaries this process is writing now (real paths)
_writing_lock = threading.Lock()
_umask_lock = threading.Lock()


def write_atomically(path: str | os.PathLike, write: Callable[[str], None]) -> None:
    """Call write(temporary_path) — for writers that want a file name (torch.save, Qt) — then
    sync it and move it over `path` (through a symbolic link, to the file it names)."""
    target = _through_links(Path(path))
    folder = target.parent
    remove_stale_temporaries(folder)
    mode = _mode_for(target)
    prefix = f".{target.name[:_NAME_KEPT]}{TEMPORARY_MARK}{os.getpid()}-"
    handle, temporary = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    temporary = _entry_path(folder, os.path.basename(temporary))
    with _writing_lock:
        _writing.add(temporary)
    try:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)  # held until closed: "a live save writes this"
        write(temporary)
        _sync_file(temporary)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
        _sync_folder(folder)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        remove_stale_temporaries(folder)
        raise
    finally:
        os.close(handle)
        with _writing_lock:
            _writing.discard(temporary)


def write_stream_atomically(path: str | os.PathLike, write: Callable[[BinaryIO], None]) -> None:
    """Call write(binary_stream); the stream's file then goes over `path` as above."""

    def through_stream(temporary: str) -> None:
        with open(temporary, "wb") as stream:
            write(stream)

    write_atomically(path, through_stream)


def write_text_atomically(path: str | os.PathLike, text: str) -> None:
    write_atomically(path, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))


def is_our_temporary(name: str) -> bool:
    """Whether a file name is one of our temporaries (`.NAME.tensorviz-PID-RANDOM.tmp`)."""
    return _TEMPORARY_NAME.match(name) is not None


def remove_stale_temporaries(folder: str | os.PathLike) -> list[str]:
    """Remove the stale temporaries of our naming in `folder`; returns the names removed.
    Never raises: sweeping must not make a save fail."""
    if fcntl is None:  # without locks a live writer cannot be told from a dead one
        return []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    removed = []
    for name in names:
        found = _TEMPORARY_NAME.match(name)
        if found is None:
            continue
        path = _entry_path(folder, name)
        with _writing_lock:
            if path in _writing:
                continue
        pid = int(found["pid"])
        if pid != os.getpid() and _process_runs(pid):
            continue  # maybe between creating its temporary and locking it: leave it
        if _remove_if_unlocked(path):
            removed.append(name)
    return removed


def _entry_path(folder, name: str) -> str:
    """The one spelling of a folder entry's path: the folder resolved, the entry itself not (a
    link named like a temporary must be looked at, never followed)."""
    return os.path.join(os.path.realpath(folder), name)


def _remove_if_unlocked(path: str) -> bool:
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:  # gone already, a link, or not ours to read
        return False
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return False
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # locked: a live save (possibly in another PID namespace) writes it
        return False
    else:
        try:
            os.unlink(path)
        except OSError:
            return False
        return True
    finally:
        os.close(handle)


def _process_runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. another user's process: it exists
        return True
    return True


def _through_links(path: Path) -> Path:
    """Where a plain open() of `path` writes: the file a symbolic link names (even one that does
    not exist yet), else `path` itself."""
    return Path(os.path.realpath(path)) if os.path.islink(path) else path


def _mode_for(target: Path) -> int:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:  # a new file
        return 0o666 & ~current_umask()


def current_umask() -> int:
    """The process umask. Linux reports it in /proc; elsewhere os.umask must set it to read it,
    so that is done under a lock (another thread creating a file meanwhile would see 0)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _umask_lock:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def _sync_file(path: str) -> None:
    """fsync the file by name: a writer may have replaced the temporary with a new file."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _sync_folder(folder: Path) -> None:
    """fsync the folder so the rename itself is on disk; some systems cannot open folders."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
