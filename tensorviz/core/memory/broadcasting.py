"""Broadcasting, step by step: align the shapes on the right, pad the shorter ones with 1s, and
judge each dim (equal, stretched or incompatible). The result is checked against
torch.broadcast_shapes, and a failing pair is named the way torch names it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from tensorviz.core.translation import _

# The examples by their English title (a stable key: tests and the screenshot tour name them);
# example_title gives the title in the language in force.
EXAMPLES: dict[str, tuple[tuple[int, ...], ...]] = {
    "(3, 1, 5) with (2, 1)": ((3, 1, 5), (2, 1)),
    "silent: [3, 1] with [4]": ((3, 1), (4,)),
    "fails: (2, 3) with (4, 1, 4)": ((2, 3), (4, 1, 4)),
    "images (64, 3, 32, 32) with (3, 1, 1)": ((64, 3, 32, 32), (3, 1, 1)),
}


def example_title(key: str) -> str:
    """An example's title (a key of EXAMPLES) in the language in force."""
    titles = {
        "(3, 1, 5) with (2, 1)": _("(3, 1, 5) with (2, 1)"),
        "silent: [3, 1] with [4]": _("silent: [3, 1] with [4]"),
        "fails: (2, 3) with (4, 1, 4)": _("fails: (2, 3) with (4, 1, 4)"),
        "images (64, 3, 32, 32) with (3, 1, 1)": _("images (64, 3, 32, 32) with (3, 1, 1)"),
    }
    return titles.get(key, key)


def verdict_word(kind: str) -> str:
    """The one word for a dim's verdict: "equal", "stretched" or "incompatible"."""
    words = {"equal": _("equal"), "stretched": _("stretched"), "incompatible": _("incompatible")}
    return words[kind]


class ShapeSyntaxError(ValueError):
    """Text that does not read as a shape."""


def parse_shape(text: str) -> tuple[int, ...]:
    """'(3, 1, 5)', '[3,1,5]', '3 1 5', '3x1x5', '()' → a tuple of non-negative sizes."""
    inner = text.strip().strip("()[]").strip()
    if not inner:
        return ()
    parts = [p for p in re.split(r"[,\sx×]+", inner) if p]
    try:
        sizes = tuple(int(p) for p in parts)
    except ValueError:
        raise ShapeSyntaxError(
            _("'{text}' is not a shape: write sizes like (3, 1, 5).").format(text=text)
        ) from None
    if any(s < 0 for s in sizes):
        raise ShapeSyntaxError(_("'{text}' has a negative size.").format(text=text))
    return sizes


def format_shape(shape: Sequence[int]) -> str:
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


@dataclass(frozen=True)
class DimVerdict:
    dim: int  # position in the result, counted from the left as torch counts it
    sizes: tuple[int, ...]  # each operand's size here after padding
    padded: tuple[bool, ...]  # which of those sizes are padding 1s
    kind: str  # "equal" | "stretched" | "incompatible"
    size: int | None  # the result size (None when incompatible)

    def text(self) -> str:
        letters = [chr(ord("a") + i) for i in range(len(self.sizes))]
        shown = ", ".join(
            (_("{name}={size} (padded)") if p else "{name}={size}").format(name=n, size=s)
            for n, s, p in zip(letters, self.sizes, self.padded, strict=True)
        )
        if self.kind == "equal":
            return _("dim {dim}: {sizes} — equal, kept").format(dim=self.dim, sizes=shown)
        if self.kind == "stretched":
            ones = [n for n, s in zip(letters, self.sizes, strict=True) if s != self.size]
            return _("dim {dim}: {sizes} — {names} stretched from 1 to {size}").format(
                dim=self.dim, sizes=shown, names=", ".join(ones), size=self.size
            )
        return _("dim {dim}: {sizes} — incompatible: the sizes differ and none is 1").format(
            dim=self.dim, sizes=shown
        )

    @property
    def word(self) -> str:
        return verdict_word(self.kind)


@dataclass(frozen=True)
class BroadcastExplanation:
    shapes: tuple[tuple[int, ...], ...]
    padded: tuple[tuple[int, ...], ...]  # every shape right-aligned and padded with 1s
    verdicts: tuple[DimVerdict, ...]
    result: tuple[int, ...] | None  # None when the shapes do not broadcast
    torch_result: tuple[int, ...] | None  # what torch.broadcast_shapes says (None: it raised)
    torch_message: str  # torch's error for the first failing pair, "" when it broadcasts

    @property
    def failing(self) -> DimVerdict | None:
        """The incompatible dim torch names: it compares from the right, so the rightmost one."""
        return next((v for v in reversed(self.verdicts) if v.kind == "incompatible"), None)

    def summary(self) -> str:
        listed = format_shape(self.shapes[0]) if self.shapes else ""
        for shape in self.shapes[1:]:
            listed = _("{first} with {second}").format(first=listed, second=format_shape(shape))
        if self.result is not None:
            if all(self.result != s for s in self.shapes):
                template = _(
                    "{shapes} → {result} — bigger than every input, and torch raises no error: "
                    "a silent broadcast"
                )
            else:
                template = "{shapes} → {result}"
            return template.format(shapes=listed, result=format_shape(self.result))
        failing = self.failing
        return _("{shapes} cannot broadcast: dim {dim} has sizes {sizes}").format(
            shapes=listed, dim=failing.dim, sizes=", ".join(map(str, failing.sizes))
        )


def explain_broadcast(shapes: Sequence[Sequence[int]]) -> BroadcastExplanation:
    shapes = tuple(tuple(int(s) for s in shape) for shape in shapes)
    ndim = max((len(s) for s in shapes), default=0)
    padded = tuple((1,) * (ndim - len(s)) + s for s in shapes)
    verdicts = []
    for dim in range(ndim):
        sizes = tuple(p[dim] for p in padded)
        pads = tuple(dim < ndim - len(s) for s in shapes)
        distinct = {s for s in sizes if s != 1}
        if len(distinct) > 1:
            verdicts.append(DimVerdict(dim, sizes, pads, "incompatible", None))
            continue
        size = distinct.pop() if distinct else 1
        kind = "stretched" if any(s != size for s in sizes) else "equal"
        verdicts.append(DimVerdict(dim, sizes, pads, kind, size))
    ok = all(v.kind != "incompatible" for v in verdicts)
    result = tuple(v.size for v in verdicts) if ok else None
    try:
        torch_result = tuple(torch.broadcast_shapes(*shapes))
    except RuntimeError:
        torch_result = None
    message = "" if ok else _torch_pair_message(shapes)
    return BroadcastExplanation(shapes, padded, tuple(verdicts), result, torch_result, message)


def _torch_pair_message(shapes: tuple[tuple[int, ...], ...]) -> str:
    """torch's own words for `a + b` where the shapes stop broadcasting. The operands are
    expanded 0-d tensors and the failing add raises before allocating, so no memory is used."""
    so_far = shapes[0]
    for shape in shapes[1:]:
        try:
            so_far = tuple(torch.broadcast_shapes(so_far, shape))
        except RuntimeError:
            try:
                torch.zeros(()).expand(so_far) + torch.zeros(()).expand(shape)
            except RuntimeError as error:
                return str(error).splitlines()[0]
    return ""
