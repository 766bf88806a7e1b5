"""The CLI speaks the explanations' catalogue: under a Chinese environment `tensorviz run` explains
a failing script in Chinese, with torch's own English message verbatim (the same catalogue the
GUI uses)."""

import pytest
import torch

from tensorviz.app import main
from tensorviz.core import translation


@pytest.fixture
def chinese_environment(monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    yield
    translation.set_language(translation.ENGLISH)  # the CLI set it process-wide


def test_a_failing_script_is_explained_in_chinese_around_torchs_message(
    tmp_path, capsys, chinese_environment
):
    path = tmp_path / "bad.py"
    path.write_text("x = torch.arange(24).reshape(2, 3, 4).transpose(0, 1)\ny = x.view(6, 4)\n")
    assert main(["run", str(path)]) == 1
    err = capsys.readouterr().err
    x = torch.arange(24).reshape(2, 3, 4).transpose(0, 1)
    with pytest.raises(RuntimeError) as refused:
        x.view(6, 4)
    assert str(refused.value) in err  # torch's English, verbatim
    assert "torch 的报错：" in err and "原因：" in err and "修正方法：" in err
    assert "不是连续 (contiguous) 的" in err and f"stride[0] = {x.stride(0)}" in err
    assert "x.reshape(6, 4)" in err  # code stays code
    assert "Why:" not in err and "Fix:" not in err
