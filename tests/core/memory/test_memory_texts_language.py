"""core/memory speaks the language in force (gettext, tensorviz-memory catalogue): the steps of
broadcasting, the contiguity and view() verdicts and the shape parser's complaints come out in
Chinese under zh_CN, while torch's own message, shapes, numbers and code stay as they are."""

import pytest
import torch

from tensorviz.core import translation
from tensorviz.core.memory.broadcasting import (
    EXAMPLES,
    ShapeSyntaxError,
    example_title,
    explain_broadcast,
    parse_shape,
)
from tensorviz.core.memory.strides import Layout, check_view, contiguity


@pytest.fixture
def chinese():
    translation.set_language("zh_CN")
    yield
    translation.set_language("en")


def _torch_says(a, b) -> str:
    try:
        torch.zeros(a) + torch.zeros(b)
    except RuntimeError as error:
        return str(error).splitlines()[0]
    raise AssertionError("torch broadcast shapes that should fail")


def test_a_failing_broadcast_is_explained_in_chinese_with_torchs_message_verbatim(chinese):
    explained = explain_broadcast([(2, 3), (4, 1, 4)])
    assert explained.torch_message == _torch_says((2, 3), (4, 1, 4))  # torch's English, as is
    assert explained.torch_message.startswith("The size of tensor a")
    assert explained.summary() == "(2, 3) 与 (4, 1, 4) 无法广播：第 2 维的大小分别是 3, 4"
    failing = explained.failing
    assert failing.dim == 2 and failing.word == "不兼容"
    assert failing.text() == "第 2 维：a=3, b=4——不兼容：大小不同，而且没有一个是 1"


def test_every_verdict_and_the_silent_broadcast_in_chinese(chinese):
    explained = explain_broadcast([(3, 1), (4,)])
    assert explained.result == tuple(torch.broadcast_shapes((3, 1), (4,)))
    assert "静默广播" in explained.summary() and "(3, 4)" in explained.summary()
    words = {v.kind: v.word for v in explain_broadcast([(2, 3), (2, 1)]).verdicts}
    assert words == {"equal": "相等", "stretched": "拉伸"}
    stretched = explain_broadcast([(3, 1, 5), (2, 1)]).verdicts[1]
    assert stretched.text() == "第 1 维：a=1, b=2——a 从 1 拉伸到 2"
    padded = explain_broadcast([(3, 1, 5), (2, 1)]).verdicts[0]
    assert "b=1（补齐）" in padded.text()
    assert {example_title(key) for key in EXAMPLES} >= {"静默广播：[3, 1] 与 [4]"}


def test_contiguity_and_view_verdicts_in_chinese_agree_with_torch(chinese):
    t = torch.arange(24.0).reshape(2, 3, 4).transpose(0, 1)
    layout = Layout.of(t)
    report = contiguity(layout)
    assert report.is_contiguous == t.is_contiguous() is False
    text = report.text()
    assert text.startswith("非连续 (non-contiguous)：这个形状的连续张量，步幅应为 (8, 4, 1)。")
    assert "会把 96 字节拷贝到新的存储中" in text  # 24 float32 elements
    check = check_view(layout, (24,))
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        t.view(24)  # torch refuses too
    assert check.text().startswith("view(24,) 会被拒绝：第 ")
    assert contiguity(Layout.of(torch.zeros(2, 3))).text().startswith("连续 (contiguous)：")


def test_the_shape_parser_complains_in_chinese_and_english_comes_back(chinese):
    with pytest.raises(ShapeSyntaxError, match="“3, a” 不是形状"):
        parse_shape("3, a")
    translation.set_language("en")
    with pytest.raises(ShapeSyntaxError, match="'3, a' is not a shape"):
        parse_shape("3, a")
