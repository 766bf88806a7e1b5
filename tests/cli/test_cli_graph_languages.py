"""`tensorviz graph` and `tensorviz forward` speak the environment's language (LANG=zh_CN):
our words in Chinese, torch's op names and the numbers exactly as torch gives them."""

import pytest

from tensorviz.app import main
from tensorviz.core import translation


@pytest.fixture
def chinese_environment(monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    yield
    translation.set_language("en")


def test_backward_order_in_chinese_keeps_torchs_names(chinese_environment, capsys):
    assert main(["graph", "square", "--backward"]) == 0
    out = capsys.readouterr().out
    assert "反向传播顺序：AddBackward0 → MulBackward0 → PowBackward0 → AccumulateGrad" in out
    assert "x.grad = 7.0" in out


def test_a_refused_input_is_one_chinese_line(chinese_environment, capsys):
    assert main(["graph", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "没有预设 'nonsense'" in err and "square" in err
    assert main(["forward", "mlp", "--depth", "-1"]) == 2
    assert "--depth 须为 0 或更大" in capsys.readouterr().err
