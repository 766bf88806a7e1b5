"""View → Theme dark and View → Zoom 200 % while the Files and Compare areas are open: the
chart's background and axes take the dark theme's roles and sizes set by hand follow the zoom
(restyled from the StyleChange the new stylesheet sends, no line to the window needed)."""

import torch

from tensorviz.ui.widgets.theme import colour, scaled


def test_dark_theme_and_zoom_restyle_files_and_compare(window, qtbot, tmp_path):
    torch.manual_seed(0)
    paths = [str(tmp_path / "a.pt"), str(tmp_path / "b.pt")]
    torch.save({"w": torch.randn(3, 2)}, paths[0])
    torch.save({"w": torch.randn(3, 2)}, paths[1])
    window.open_paths(paths)
    files = window.panel("files")
    qtbot.waitUntil(lambda: len(files.inspections) == 2 and not files.is_busy(), timeout=30_000)
    window.show_area("compare")
    compare = window.panel("compare")
    compare.compare_paths(*paths)
    qtbot.waitUntil(lambda: compare.comparison is not None and not compare.is_busy(),
                    timeout=30_000)  # fmt: skip
    light = colour("plot_background").name()
    try:
        window.appearance.apply(theme_choice="dark", zoom=2.0)
        dark = colour("plot_background").name()
        assert dark != light
        chart = compare.chart
        qtbot.waitUntil(lambda: chart.backgroundBrush().color().name() == dark)
        ink = colour("plot_foreground").name()
        assert chart.getPlotItem().getAxis("left").pen().color().name() == ink
        qtbot.waitUntil(lambda: files.progress.maximumWidth() == scaled(160) == 320)
        assert compare.chart.minimumWidth() == scaled(160)
    finally:
        window.appearance.apply(theme_choice="light", zoom=1.0)
    qtbot.waitUntil(lambda: compare.chart.backgroundBrush().color().name() == light)
    qtbot.waitUntil(lambda: files.progress.maximumWidth() == 160)
