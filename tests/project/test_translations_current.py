"""Every UI text wrapped for translation has a Chinese translation, every core message id has a
Chinese entry, and the committed .qm/.mo are what compiling the .ts/.po gives now."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _translations(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "tools" / "translations.py"), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_catalogues_hold_every_text_translated_and_compiled(tmp_path):
    result = _translations("check")
    assert result.returncode == 0, result.stdout + result.stderr
