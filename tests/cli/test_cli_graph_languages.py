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


def test_the_edges_name_the_output_in_chinese_with_torchs_number(chinese_environment, capsys):
    import torch

    assert main(["graph", "square"]) == 0
    edges = [line for line in capsys.readouterr().out.splitlines() if " -> " in line]
    x = torch.tensor(2.0, requires_grad=True)
    y = x**2 + 3 * x  # the preset's own expression; torch says which output each edge carries
    numbers, todo = [], [y.grad_fn]
    while todo:
        for function, number in todo.pop().next_functions:
            if function is not None:
                numbers.append(number)
                todo.append(function)
    assert edges and all("output" not in line for line in edges)
    assert sorted(line.rsplit("第 ", 1)[1].split(" ")[0] for line in edges[1:]) == sorted(
        str(n) for n in numbers
    )
