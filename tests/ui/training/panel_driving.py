"""Driving the Training panel from tests: set form fields and wait for the new experiment."""

TIMEOUT = 20_000


def configure(qtbot, panel, **values):
    """Set form fields (each edit resets the experiment) and wait for the new experiment."""
    for name, value in values.items():
        box = getattr(panel.form, name)
        box.setChecked(value) if isinstance(value, bool) else box.setValue(value)
    qtbot.waitUntil(lambda: panel.state == "ready", timeout=TIMEOUT)
