"""An unchecked check box or radio button must be visible in both themes: Fusion draws its edge
as the window colour darkened, which on the dark theme's near-black window is invisible. WCAG
1.4.11 asks 3:1 for the boundary of a control against what is next to it; measured on pixels."""

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QCheckBox, QRadioButton, QStyle, QStyleOptionButton

from tensorviz.ui.widgets import theme as themes
from tensorviz.ui.window.appearance import Appearance


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("kind", [QCheckBox, QRadioButton])
def test_an_unchecked_indicator_stands_out_from_the_window(qtbot, theme, kind):
    appearance = Appearance.shared()
    appearance.apply(theme_choice=theme)
    try:
        box = kind("retain_graph")
        qtbot.addWidget(box)
        box.show()
        qtbot.waitExposed(box)
        option = QStyleOptionButton()
        box.initStyleOption(option)
        element = (
            QStyle.SubElement.SE_CheckBoxIndicator
            if kind is QCheckBox
            else QStyle.SubElement.SE_RadioButtonIndicator
        )
        rect: QRect = box.style().subElementRect(element, option, box)
        image = box.grab().toImage()
        background = themes.current_theme().colour("window")
        best = max(
            themes.contrast_ratio(image.pixelColor(x, y), background)
            for x in range(rect.left(), rect.right() + 1)
            for y in range(rect.top(), rect.bottom() + 1)
        )
        assert best >= 3.0, f"{theme}: the box's edge reaches only {best:.2f}:1"
    finally:
        appearance.apply(theme_choice="light")
