"""A switch of language while the Autograd graph or the Architecture area is open retranslates
what stays on screen: buttons, tooltips, the step line and the details pane beside the graph."""

import pytest

from tensorviz.core import translation


@pytest.fixture
def switch(window, qtbot):
    def to(language: str) -> None:
        """Switch and wait for Qt's LanguageChange (posted) to reach the menus."""
        window.language_menu.choices[language].trigger()
        title = "语言(&L)" if language == "zh_CN" else "&Language"
        qtbot.waitUntil(lambda: window.language_menu.title() == title)

    yield to
    to("en")


def test_the_graph_area_speaks_chinese_after_a_switch_and_english_after_the_next(
    window, switch, qtbot
):
    window.show_area("graph")
    panel = window.panel("graph")
    qtbot.waitUntil(panel.isVisible)
    panel.run_backward()
    panel.step_forward()
    assert panel.bar.backward_button.text() == "Backward"
    assert "nodes visited" not in panel.details.toPlainText()
    english_details = panel.details.toPlainText()
    switch("zh_CN")
    assert translation.current_language() == "zh_CN"
    qtbot.waitUntil(lambda: panel.bar.backward_button.text() == "反向传播")
    assert panel.bar.step_label.text().startswith("第 1 次 · 第 1/")
    assert panel.search.placeholderText() == "查找节点…"
    assert panel.picker.currentText().startswith("预设：")
    chinese_details = panel.details.toPlainText()
    assert chinese_details != english_details and "到达的梯度" in chinese_details
    switch("en")
    qtbot.waitUntil(lambda: panel.bar.backward_button.text() == "Backward")
    assert panel.details.toPlainText() == english_details


def test_the_architecture_area_speaks_chinese_after_a_switch(window, switch, qtbot):
    window.show_area("architecture")
    panel = window.panel("architecture")
    qtbot.waitUntil(lambda: panel.current is not None, timeout=60_000)
    switch("zh_CN")
    qtbot.waitUntil(lambda: panel.fold.text() == "折叠重复块")
    assert panel.backward_button.text() == "反向计算图"
    assert panel.picker.currentText().startswith("预设：TransformerEncoder，4 层")
    assert "次模块调用" in panel.details.toPlainText()
    details = [d.get("detail", "") for _, d in panel.view.architecture.graph.nodes(data=True)]
    assert any("个参数" in d for d in details)  # the picture was drawn again, in Chinese
    switch("en")
    qtbot.waitUntil(lambda: panel.fold.text() == "fold repeats")
    assert "module calls" in panel.details.toPlainText()


def test_chinese_labels_in_the_details_take_a_full_width_colon(window, switch, qtbot):
    window.show_area("graph")
    panel = window.panel("graph")
    qtbot.waitUntil(panel.isVisible)
    panel.run_backward()
    panel.step_forward()
    switch("zh_CN")
    qtbot.waitUntil(lambda: "到达的梯度" in panel.details.toPlainText())
    text = panel.details.toPlainText()
    assert "到达的梯度：" in text and "到达的梯度:" not in text
    switch("en")
    qtbot.waitUntil(lambda: "gradient arriving: " in panel.details.toPlainText())


def test_local_derivative_words_read_before_the_pass_follow_a_later_switch(window, qtbot):
    """The words of a local derivative are read when the backward runs (before it frees the
    saved tensors); a switch of language afterwards still reaches them."""
    import torch

    from tensorviz.core.autograd.presets import BuiltGraph

    window.show_area("graph")
    panel = window.panel("graph")
    qtbot.waitUntil(panel.isVisible)
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    panel._show(BuiltGraph((x**2).sum(), "loss", {"x": x}), "x² summed")
    qtbot.waitUntil(lambda: panel.layout_result is not None, timeout=60_000)
    panel.run_backward()
    panel.step_forward()  # SumBackward0
    panel.step_forward()  # PowBackward0
    qtbot.waitUntil(lambda: "the power rule" in panel.details.toPlainText())
    english = "the power rule: bring the exponent {n} down and lower it by one"
    window.language_menu.choices["zh_CN"].trigger()
    try:
        power_rule = translation._(english)
        assert power_rule != english
        qtbot.waitUntil(lambda: power_rule.format(n=2) in panel.details.toPlainText())
        assert "the power rule" not in panel.details.toPlainText()
    finally:
        window.language_menu.choices["en"].trigger()
    qtbot.waitUntil(lambda: english.format(n=2) in panel.details.toPlainText())
