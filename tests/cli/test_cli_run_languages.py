"""`tensorviz run` in the environment's language: under zh_CN its own words are Chinese, while
torch's message, the script's code and the tensor names stay exactly as they are; the table of
captured tensors stays aligned with Chinese headers (a Chinese character takes two columns)."""

import re
import unicodedata

import pytest
import torch

from tensorviz.app import main
from tensorviz.core import translation

CJK = re.compile(r"[\u4e00-\u9fff]")
SCRIPT = "a = torch.ones(2, 3)\nlonger_name = a.T\nc = a @ a\n"


@pytest.fixture
def chinese_environment(monkeypatch):
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    yield
    translation.set_language("en")


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def test_a_failing_run_speaks_chinese_around_torchs_own_message(
    tmp_path, capsys, chinese_environment
):
    path = tmp_path / "bad.py"
    path.write_text(SCRIPT)
    assert main(["run", str(path)]) == 1
    captured = capsys.readouterr()
    with pytest.raises(RuntimeError) as error:
        torch.ones(2, 3) @ torch.ones(2, 3)
    assert str(error.value) in captured.err  # torch's words, as torch wrote them
    assert "c = a @ a" in captured.err  # the script's own line
    lines = captured.out.splitlines()
    heading = next(i for i, line in enumerate(lines) if line.endswith("：") or line.endswith(":"))
    assert CJK.search(lines[heading]) and "2" in lines[heading] and "3" in lines[heading]
    assert "captured" not in captured.out and "tensors" not in captured.out
    header, *rows = lines[heading + 1 : heading + 4]
    assert CJK.search(header) and [row.split()[0] for row in rows] == ["a", "longer_name"]
    # every row's second cell starts where the header's second column starts, on screen
    second = _width(re.match(r"\S+\s+", header).group())
    a = torch.ones(2, 3)
    for row, tensor in zip(rows, (a, a.T), strict=True):
        assert _width(re.match(r"\S+\s+", row).group()) == second, (header, row)
        assert row[len(re.match(r"\S+\s+", row).group()) :].startswith(str(list(tensor.shape)))


def test_a_bad_argument_is_one_chinese_line(tmp_path, capsys, chinese_environment):
    assert main(["run", str(tmp_path / "missing.py")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(tmp_path / "missing.py") in err and CJK.search(err)
