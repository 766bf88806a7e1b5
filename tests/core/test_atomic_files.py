import os
from pathlib import Path

import pytest

from tensorviz.core.atomic_files import (
    write_atomically,
    write_stream_atomically,
    write_text_atomically,
)


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
