"""Undo and redo of workspace changes, within one memory budget.

A step is something that can be reversed: reversing it (undo) returns the step that does it
again (redo), and reversing that returns the undo step once more. Each step says how much memory
only it keeps alive (copies of written bytes, tensors no entry holds any more); undo and redo
steps share one budget. Beyond it, redo steps are forgotten first, the one furthest ahead first
(undo is what a user counts on; redo is its mirror), then the oldest undo steps. A new change
forgets every redo step, as editors do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Step:
    description: str
    reverse: Callable[[], Step | None]  # does the reversal; returns the step reversing it again
    nbytes: int = 0  # memory only this step keeps alive


class UndoHistory:
    def __init__(self, budget: Callable[[], int]) -> None:
        self._budget = budget
        self._undo: list[Step] = []
        self._redo: list[Step] = []  # the next to redo is last

    def push(self, step: Step) -> None:
        """A new change: it can be undone, and nothing undone before can be redone any more."""
        self._redo.clear()
        self._undo.append(step)
        self._fit_budget()

    def clear(self) -> None:
        self._undo.clear()
        self._redo.clear()

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo_description(self) -> str | None:
        return self._undo[-1].description if self._undo else None

    def redo_description(self) -> str | None:
        return self._redo[-1].description if self._redo else None

    def undo(self) -> str | None:
        """Undo the last step; None when there is none."""
        if not self._undo:
            return None
        step = self._undo.pop()
        again = step.reverse()
        if again is not None:
            self._redo.append(again)
            self._fit_budget()
        return step.description

    def redo(self) -> str | None:
        """Redo the last undone step; None when there is none."""
        if not self._redo:
            return None
        step = self._redo.pop()
        back = step.reverse()
        if back is not None:
            self._undo.append(back)
            self._fit_budget()
        return step.description

    def _fit_budget(self) -> None:
        budget = self._budget()
        while len(self._undo) + len(self._redo) > 1 and self._held() > budget:
            (self._redo if self._redo else self._undo).pop(0)

    def _held(self) -> int:
        return sum(step.nbytes for step in (*self._undo, *self._redo))


def reversible(
    description: str,
    back: Callable[[], bool | None],
    again: Callable[[], bool | None],
    held_by_undo: Callable[[], int] | int = 0,
    held_by_redo: Callable[[], int] | int = 0,
) -> Step:
    """The undo step of a change that `back` takes back and `again` does once more, as often
    as the user goes back and forth. `back` or `again` returning False means the change cannot
    be reversed again (e.g. a copy for redo would not fit the budget). `held_by_*`: memory the
    undo / redo step keeps alive, read when the step is made."""

    def held(amount) -> int:
        return amount() if callable(amount) else amount

    def undo_step() -> Step:
        return Step(description, take_back, held(held_by_undo))

    def take_back() -> Step | None:
        return None if back() is False else Step(description, do_again, held(held_by_redo))

    def do_again() -> Step | None:
        return None if again() is False else undo_step()

    return undo_step()
