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
