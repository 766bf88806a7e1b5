"""Mutated files of every format through `tensorviz inspect`, as a hostile user would feed them:
never a traceback, never more than one line on stderr (no torch warning before it), exit 2 for an
unreadable file and 0 or 3 for a readable one, and the payload of a hostile mutant never runs.

A seeded mutator (so a failure is reproducible from its case id): bit flips, cut-offs, inserted
control characters and NUL bytes, huge lengths in headers, the zip's "version needed to extract"
raised past what Python reads, and safetensors headers edited field by field."""

from __future__ import annotations

import json
import os
import pickle
import random
import struct
import warnings

import checkpoint_corpus as corpus
import numpy as np
import pytest
import torch

from tensorviz.app import main

pytestmark = pytest.mark.filterwarnings("ignore")
CASES_PER_FORMAT = 36


class Shell:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def seeds(folder, marker) -> dict[str, bytes]:
    """One well-formed file of every format, as bytes."""
    paths = {
        "zip.pt": lambda: torch.save({"w": torch.randn(4, 3), "n": 3, "evil": Shell(marker)},
                                     folder / "zip.pt"),
        "legacy.pt": lambda: torch.save({"w": torch.arange(6.0), "s": "x"}, folder / "legacy.pt",
                                        _use_new_zipfile_serialization=False),
        "p5.pt": lambda: torch.save({"a": np.arange(3), "w": torch.ones(2)}, folder / "p5.pt",
                                    pickle_protocol=5),
        "plain.pkl": lambda: (folder / "plain.pkl").write_bytes(
            pickle.dumps({"a": [1, 2], "b": {"c": 1.5}}, protocol=4)),
        "x.safetensors": lambda: corpus.dtypes(folder, ".safetensors").rename(
            folder / "x.safetensors"),
        "a.npy": lambda: np.save(folder / "a.npy", np.arange(12.0).reshape(3, 4)),
        "b.npz": lambda: np.savez(folder / "b.npz", x=np.ones(3), y=np.arange(4)),
        "ts.pt": lambda: corpus.torchscript(folder).rename(folder / "ts.pt"),
    }  # fmt: skip
    found = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, make in paths.items():
            make()
            found[name] = (folder / name).read_bytes()
    return found


NASTY = [b"\x00", b"\x1b[31m", b"\r\n", b"\x7f", "\u202e".encode(), b"\xff\xfe", b"\n" * 3]


def mutate(data: bytes, name: str, rng: random.Random) -> bytes:
    data = bytearray(data)
    kind = rng.randrange(7)
    if kind == 0:  # bit flips
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == 1:  # cut short
        del data[rng.randrange(1, len(data)) :]
    elif kind == 2:  # control characters and NUL inserted
        at = rng.randrange(len(data))
        data[at:at] = rng.choice(NASTY) * rng.randint(1, 3000)
    elif kind == 3 and data[:2] == b"PK":  # "version needed to extract" past 6.3, everywhere
        for marker in (b"PK\x03\x04", b"PK\x01\x02"):
            at = data.find(marker)
            while at >= 0:
                offset = at + (4 if marker == b"PK\x03\x04" else 6)
                data[offset : offset + 2] = struct.pack("<H", rng.choice([64, 100, 0xFFFF]))
                at = data.find(marker, at + 4)
    elif kind == 4 and name.endswith(".safetensors"):
        (length,) = struct.unpack("<Q", data[:8])
        header = json.loads(data[8 : 8 + length])
        key = rng.choice([k for k in header if k != "__metadata__"])
        field = rng.choice(["dtype", "shape", "data_offsets", "name"])
        value = rng.choice([10**18, -1, "F99", "\x00\x1b[2J" * 500, [2**62, 2**62], None, [1.5]])
        if field == "name":
            header["\x00" + "\x1b" * rng.randint(1, 20000)] = header.pop(key)
        else:
            header[key][field] = value
        text = json.dumps(header).encode()
        data = bytearray(struct.pack("<Q", len(text)) + text + bytes(data[8 + length :]))
    elif kind == 5:  # a huge length where a length is
        at = rng.randrange(max(1, len(data) - 8))
        data[at : at + 8] = struct.pack("<Q", rng.choice([2**31 - 1, 2**40, 2**63 - 1]))
    else:  # a run of random bytes
        at = rng.randrange(len(data))
        data[at : at + 16] = rng.randbytes(16)
    return bytes(data)


@pytest.fixture(scope="module")
def seed_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("seeds")
    marker = folder / "MARKER"
    return seeds(folder, marker), marker


@pytest.mark.parametrize("fmt", ["zip.pt", "legacy.pt", "p5.pt", "plain.pkl", "x.safetensors",
                                 "a.npy", "b.npz", "ts.pt"])  # fmt: skip
def test_mutated_files_get_one_clean_line(seed_files, fmt, tmp_path, capfd):
    originals, marker = seed_files
    rng = random.Random(f"{fmt}-20")
    for case in range(CASES_PER_FORMAT):
        path = tmp_path / f"case{case}-{fmt}"
        path.write_bytes(mutate(originals[fmt], fmt, rng))
        code = main(["inspect", str(path)])
        out, err = capfd.readouterr()
        where = f"{fmt} case {case}: exit {code}, stderr {err[:300]!r}"
        assert code in (0, 2, 3), where
        assert "Traceback" not in err and "Traceback" not in out, where
        lines = err.splitlines()
        assert len(lines) == (0 if code == 0 else 1), where
        assert all(len(line) <= 700 and line.isprintable() for line in lines), where
        if code == 2:
            assert out == "" and "error:" in err, where
        else:
            assert out.strip(), where
        path.unlink()
    assert not marker.exists()


@pytest.mark.parametrize("name", ["zip.pt", "b.npz"])
def test_a_zip_needing_a_newer_version_to_extract_is_one_line(seed_files, name, tmp_path, capfd):
    """The 27-line NotImplementedError traceback of issue 20: 'version needed' above 6.3."""
    data = bytearray(seed_files[0][name])
    for marker, skip in ((b"PK\x03\x04", 4), (b"PK\x01\x02", 6)):
        at = data.find(marker)
        while at >= 0:
            data[at + skip : at + skip + 2] = struct.pack("<H", 64)
            at = data.find(marker, at + 4)
    path = tmp_path / name
    path.write_bytes(bytes(data))
    code = main(["inspect", str(path)])
    _out, err = capfd.readouterr()
    assert code in (0, 2, 3) and "Traceback" not in err
    assert len(err.splitlines()) == (0 if code == 0 else 1)
