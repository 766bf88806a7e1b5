"""The claim checks read Chinese text as well as English: size lists and dtype names next to
Chinese characters and full-width punctuation are found, code-like brackets are not, and English
left in a Chinese explanation is caught."""

import pytest
from claim_checks import english_left, named_dtypes, named_sizes, reads_in_chinese

from tensorviz.core.explain.errors import ExplainedError


@pytest.mark.parametrize(
    ("text", "sizes"),
    [
        ("形状为[2, 3]，步幅（[3, 1]）", {(2, 3), (3, 1)}),
        ("对齐后：a → [1, 2, 3]，b → [4, 1, 4]。", {(1, 2, 3), (4, 1, 4)}),
        ("w[0]（形状 []）是叶子张量的视图", {()}),
        ("stride[0] = 4，但 x[1] 和 torch.tensor([1, 2]) 不是形状", set()),
    ],
)
def test_size_lists_are_found_in_chinese_text(text, sizes):
    assert named_sizes(text) == sizes


def test_dtype_names_are_found_next_to_chinese_characters():
    assert named_dtypes("这个张量是int64，也就是整数；转换成float32。") == {"int64", "float32"}
    assert named_dtypes("整数（int）和 Long") == set()


def test_english_left_in_chinese_is_caught_and_code_is_not():
    assert english_left("用 x.reshape(6, 4)；repeat() tiles by whole multiples") == [
        "tiles by whole multiples"
    ]
    assert english_left("它接受 3D (unbatched) or 4D (batched) 的输入；Get Started 页面") == []
    with pytest.raises(AssertionError):
        reads_in_chinese(ExplainedError("k", "Index is out of bounds", "", "索引越界。", "改正"))
