"""Under zh_CN the comparison's report is Chinese; keys, dtypes and figures stay as they are."""

import torch

from tensorviz.core import translation
from tensorviz.core.diff.comparison import compare_sides
from tensorviz.core.diff.report import report_lines
from tensorviz.core.diff.sides import side_of_file


def test_the_report_is_chinese_and_its_figures_are_torchs(tmp_path):
    torch.manual_seed(0)
    a = {"layer.weight": torch.randn(3, 4), "layer.bias": torch.zeros(3)}
    b = {"layer.weight": a["layer.weight"].clone(), "layer.bias": a["layer.bias"].clone()}
    b["layer.weight"][0] += 1
    torch.save(a, tmp_path / "a.pt")
    torch.save(b, tmp_path / "b.pt")
    translation.set_language("zh_CN")
    try:
        sides = side_of_file(tmp_path / "a.pt"), side_of_file(tmp_path / "b.pt")
        text = "\n".join(report_lines(compare_sides(*sides)))
    finally:
        translation.set_language("en")
    changed = torch.count_nonzero(b["layer.weight"] != a["layer.weight"]).item()
    assert "两边都有的张量 2 个：1 个已变化，1 个未变化" in text
    assert f"{a['layer.weight'].numel()} 个元素中有 {changed} 个变化" in text
    assert "layer.weight" in text and "changed" not in text
