"""Core's autograd texts under zh_CN: explained in Chinese, torch's own message verbatim."""

import pytest
import torch

from tensorviz.core import translation
from tensorviz.core.autograd.backward_steps import record_backward, why_grad_is_none
from tensorviz.core.autograd.graph import extract_graph, why_no_grad_fn


@pytest.fixture
def chinese():
    translation.set_language("zh_CN")
    yield
    translation.set_language("en")


def test_a_refused_backward_keeps_torchs_message_and_explains_it_in_chinese(chinese):
    x = torch.ones(3, requires_grad=True)
    y = x * 2  # not a scalar: backward() without a gradient refuses
    with pytest.raises(RuntimeError) as raised:
        (x * 2).backward()
    torch_message = str(raised.value).splitlines()[0]
    record = record_backward(extract_graph([y]), y)
    first, explanation = record.error.split("\n", 1)
    assert first == torch_message  # torch's English, as torch wrote it
    assert "grad can be implicitly created only for scalar outputs" in first
    assert "需要 `gradient` 参数" in explanation and "torch.ones_like(y)" in explanation


def test_why_texts_follow_the_language(chinese):
    leaf = torch.ones(2, requires_grad=True)
    assert "叶子张量" in why_no_grad_fn(leaf) and "requires_grad=True" in why_no_grad_fn(leaf)
    assert "不是叶子张量" in why_grad_is_none(leaf * 2, reached=True)
    translation.set_language("en")
    assert "not a leaf" in why_grad_is_none(leaf * 2, reached=True)
