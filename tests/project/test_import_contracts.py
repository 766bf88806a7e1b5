"""The layers of the house are import-linter contracts in pyproject.toml; this runs them, so a
change that breaks a layer (core importing Qt, the cli importing the ui, an import circle) fails
`make test`. import-linter reads imports without running them; tests/core/test_core_is_qt_free.py
checks what importing core really loads."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_contracts_are_kept():
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    assert "No import circles anywhere in tensorviz KEPT" in result.stdout
