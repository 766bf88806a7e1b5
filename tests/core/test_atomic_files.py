import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
import torch

from tensorviz.core import atomic_files
from tensorviz.core.atomic_files import (
    is_our_temporary,
    remove_stale_temporaries,
    write_atomically,
    write_stream_atomically,
    write_text_atomically,
)
from tensorviz.core.files.formats import save_tensors
from tensorviz.core.training.report import save_parameters, write_history_csv
from tensorviz.core.training.trainer import Trainer, TrainingConfig

posix_only = pytest.mark.skipif(os.name != "posix", reason="modes, links and flock are POSIX")


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "data.bin"
    target.write_bytes(b"old")

    def half_then_fail(stream):
        stream.write(b"new and broken")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_stream_atomically(target, half_then_fail)
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["data.bin"]


def test_writes_replace_the_file(tmp_path):
    target = tmp_path / "out.txt"
    write_text_atomically(target, "one")
    write_atomically(target, lambda temporary: Path(temporary).write_text("two"))
    assert target.read_text() == "two"
    write_stream_atomically(target, lambda stream: stream.write(b"three"))
    assert target.read_bytes() == b"three" and os.listdir(tmp_path) == ["out.txt"]


# --- modes: what a plain open() gives ----------------------------------------------------------


@pytest.fixture
def umask():
    """Set the umask for one test (and put the old one back)."""
    old = os.umask(0o022)
    os.umask(old)
    yield lambda mask: os.umask(mask)
    os.umask(old)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@posix_only
@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077, 0o027])
def test_a_new_file_gets_the_mode_a_plain_open_gives(tmp_path, umask, mask):
    umask(mask)
    with open(tmp_path / "plain.txt", "w") as plain:
        plain.write("x")
    write_text_atomically(tmp_path / "ours.txt", "x")
    assert _mode(tmp_path / "ours.txt") == _mode(tmp_path / "plain.txt") == 0o666 & ~mask


@posix_only
def test_an_existing_file_keeps_its_mode_as_with_a_plain_open(tmp_path, umask):
    umask(0o022)
    for name in ("plain.txt", "ours.txt"):
        (tmp_path / name).write_text("old")
        os.chmod(tmp_path / name, 0o640)
    with open(tmp_path / "plain.txt", "w") as plain:
        plain.write("new")
    write_text_atomically(tmp_path / "ours.txt", "new")
    assert _mode(tmp_path / "ours.txt") == _mode(tmp_path / "plain.txt") == 0o640


@posix_only
def test_every_writer_of_the_app_gets_the_umask_mode(tmp_path, umask):
    """Exports, saves and CSV all go through the atomic writer (issue 13 item 9: not 0600)."""
    umask(0o022)
    trainer = Trainer(TrainingConfig(epochs=3))
    history = trainer.run()
    write_history_csv(tmp_path / "loss.csv", history)
    save_parameters(tmp_path / "params.pt", history[-1], trainer.config)
    save_tensors({"w": torch.ones(2)}, tmp_path / "w.pt")
    save_tensors({"w": torch.ones(2)}, tmp_path / "w.safetensors")
    for name in ("loss.csv", "params.pt", "w.pt", "w.safetensors"):
        assert _mode(tmp_path / name) == 0o644, name


# --- symbolic links: written through, as editors do ------------------------------------------


@posix_only
def test_saving_to_a_symlink_writes_through_to_its_target(tmp_path):
    real = tmp_path / "data" / "real.txt"
    real.parent.mkdir()
    real.write_text("old")
    os.chmod(real, 0o600)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_text_atomically(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new" and _mode(real) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["data", "link.txt"]
    assert os.listdir(real.parent) == ["real.txt"]


@posix_only
def test_a_link_to_a_file_not_yet_there_creates_that_file(tmp_path):
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "made.txt")
    write_text_atomically(link, "made")
    assert link.is_symlink() and (tmp_path / "made.txt").read_text() == "made"


# --- fsync of the file and of its folder -------------------------------------------------------


@pytest.fixture
def synced(monkeypatch):
    """(device, inode) of everything fsync'ed, through the real os.fsync."""
    seen = []
    real_fsync = os.fsync

    def recording_fsync(fd):
        info = os.fstat(fd)
        seen.append((info.st_dev, info.st_ino))
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    return seen


def _identity(path):
    info = os.stat(path)
    return info.st_dev, info.st_ino


@pytest.mark.parametrize(
    "save",
    [
        pytest.param(lambda p: write_text_atomically(p, "text"), id="text"),
        pytest.param(lambda p: write_stream_atomically(p, lambda s: s.write(b"b")), id="stream"),
        pytest.param(lambda p: write_atomically(p, lambda t: Path(t).write_text("t")), id="path"),
        pytest.param(
            lambda p: write_history_csv(p, Trainer(TrainingConfig(epochs=2)).run()), id="csv"
        ),
        pytest.param(
            lambda p: save_parameters(
                p, Trainer(TrainingConfig(epochs=2)).run()[-1], TrainingConfig(epochs=2)
            ),
            id="parameters",
        ),
    ],
)
def test_every_atomic_write_syncs_the_file_and_its_folder(tmp_path, synced, save):
    target = tmp_path / "out"
    save(target)
    assert _identity(target) in synced, "the file's data was not synced before the rename"
    assert _identity(tmp_path) in synced, "the folder (the rename) was not synced"


# --- stale temporaries -------------------------------------------------------------------------

_SLOW_SAVE = textwrap.dedent(
    """
    import sys, time
    from tensorviz.core.atomic_files import write_stream_atomically

    def slow(stream):
        stream.write(b"x" * 1_000_000)
        stream.flush()
        print("writing", flush=True)
        time.sleep(120)

    write_stream_atomically(sys.argv[1], slow)
    """
)


def _start_slow_save(target: Path) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", _SLOW_SAVE, str(target)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert process.stdout.readline().strip() == "writing"
    return process


def _ours(folder: Path) -> list[str]:
    return [name for name in os.listdir(folder) if is_our_temporary(name)]


@posix_only
def test_a_save_killed_midway_leaves_nothing_after_the_next_save(tmp_path):
    (tmp_path / "model.pt").write_bytes(b"old")
    process = _start_slow_save(tmp_path / "model.pt")
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    left = _ours(tmp_path)
    assert len(left) == 1 and os.path.getsize(tmp_path / left[0]) == 1_000_000
    assert (tmp_path / "model.pt").read_bytes() == b"old"  # the kill never reached the target
    write_text_atomically(tmp_path / "other.csv", "a,b\n")  # another file, same folder
    assert sorted(os.listdir(tmp_path)) == ["model.pt", "other.csv"]


@posix_only
def test_a_failed_save_sweeps_what_a_killed_one_left(tmp_path):
    process = _start_slow_save(tmp_path / "model.pt")
    process.kill()
    process.wait(timeout=30)
    assert _ours(tmp_path)

    def fail(_stream):
        raise OSError("disk full")

    with pytest.raises(OSError):
        write_stream_atomically(tmp_path / "other.pt", fail)
    assert os.listdir(tmp_path) == []


@posix_only
def test_a_temporary_another_live_process_writes_is_left_alone(tmp_path):
    process = _start_slow_save(tmp_path / "model.pt")
    try:
        live = _ours(tmp_path)
        write_text_atomically(tmp_path / "other.txt", "x")
        assert remove_stale_temporaries(tmp_path) == []
        assert _ours(tmp_path) == live
    finally:
        process.kill()
        process.wait(timeout=30)


@posix_only
def test_a_temporary_another_thread_of_ours_writes_is_left_alone(tmp_path):
    started, release = threading.Event(), threading.Event()
    errors = []

    def slow(stream):
        stream.write(b"partial")
        started.set()
        release.wait(30)

    def save():
        try:
            write_stream_atomically(tmp_path / "slow.bin", slow)
        except Exception as error:  # noqa: BLE001 — reported below
            errors.append(error)

    thread = threading.Thread(target=save)
    thread.start()
    try:
        assert started.wait(30)
        live = _ours(tmp_path)
        write_text_atomically(tmp_path / "quick.txt", "x")
        assert len(live) == 1 and _ours(tmp_path) == live
    finally:
        release.set()
        thread.join(30)
    assert not errors and (tmp_path / "slow.bin").read_bytes() == b"partial"
    assert sorted(os.listdir(tmp_path)) == ["quick.txt", "slow.bin"]


@posix_only
def test_only_our_stale_temporaries_are_removed(tmp_path):
    dead = _dead_pid()
    ours = f".model.pt{atomic_files.TEMPORARY_MARK}{dead}-abc123.tmp"
    others = [
        ".model.pt.abc123.tmp",  # an older naming, or another tool's: not provably ours
        f".x{atomic_files.TEMPORARY_MARK}notapid-abc.tmp",
        f"model{atomic_files.TEMPORARY_MARK}{dead}-abc.tmp",  # not hidden: a user's file
        "notes.tmp",
    ]
    for name in [ours, *others]:
        (tmp_path / name).write_text("x")
    link = f".link{atomic_files.TEMPORARY_MARK}{dead}-l.tmp"  # named like ours, but a link
    (tmp_path / link).symlink_to(tmp_path / "notes.tmp")
    assert remove_stale_temporaries(tmp_path) == [ours]
    assert sorted(os.listdir(tmp_path)) == sorted([*others, link])


def _dead_pid() -> int:
    """The pid of a process that has ended (and was reaped)."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid
