"""Regression guard for PySide6 6.12.0 on CPython 3.11: every void Qt call dropped None's refcount
until the interpreter aborted (none_dealloc). On 3.12+ None is immortal and the count is fixed."""

import sys

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel

CALLS = 5_000


def test_void_qt_calls_do_not_drop_none_refcount(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    timer = QTimer()
    obj = QObject()
    before = sys.getrefcount(None)
    for i in range(CALLS):
        label.setText("x")  # each returns None from C++ void
        label.setMinimumWidth(i % 50)
        label.update()
        timer.setInterval(i % 100)
        obj.setObjectName("n")
    after = sys.getrefcount(None)
    # Other code may take or drop a handful of references; the bug drops one per call (25,000).
    assert after >= before - 100, f"None refcount fell from {before} to {after}"
