"""A file that cannot be opened, in Chinese at 200 % (a projector): the Files area still fits a
1280×800 window; the window must not grow past the screen to make room for the error card."""


def test_a_failed_file_at_200_percent_fits_1280_by_800(window, qtbot, tmp_path):
    window.language_menu.choices["zh_CN"].trigger()
    try:
        window.appearance.apply(zoom=2.0)
        window.resize(1280, 800)
        bad = tmp_path / "bad.pt"
        bad.write_bytes(b"not a checkpoint")
        window.open_paths([str(bad)])
        files = window.panel("files")
        window.show_area("files")
        qtbot.waitUntil(
            lambda: files.error_panel.isVisible() and not files.is_busy(), timeout=30_000
        )
        assert window.minimumSizeHint().height() <= 800
        assert window.height() <= 800
    finally:  # the language is process-wide: the next tests expect English
        window.appearance.apply(zoom=1.0)
        window.language_menu.choices["en"].trigger()
