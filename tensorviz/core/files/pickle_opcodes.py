"""The opcodes of pickle protocols 0–5, one small handler each, for SafeUnpickler (unpickler.py).

Each handler takes the unpickler `u` (SafeUnpickler; not imported here, so the two modules form
no import circle). Handlers only move values between the stack, the memo and the marks;
everything that could import or call goes through the unpickler's own `_find_class`, `_call`,
`_new_object` and `_build`, which never run anything from the file.
"""

from __future__ import annotations

import codecs
import struct
from collections import deque

from tensorviz.core.files.stand_ins import GlobalRef, RecordedState
from tensorviz.core.translation import _

MAX_PROTOCOL = 5
STOP = object()


class PickleReadError(Exception):
    """The pickle cannot be read; str() is one sentence."""


def _text_line(u) -> str:
    return u.source.readline()[:-1].decode("utf-8", "surrogatepass")


def _decode(data: bytes):
    try:
        return data.decode("utf-8")  # what torch.load passes: encoding="utf-8"
    except UnicodeDecodeError:
        return data


def _push(value):
    return lambda u: u.stack.append(value)


def _unpack(fmt: str, size: int):
    return lambda u: u.stack.append(struct.unpack(fmt, u.source.read(size))[0])


def _sized(fmt: str, size: int, make):
    def handler(u) -> None:
        (n,) = struct.unpack(fmt, u.source.read(size))
        u.stack.append(make(u.source.read(n)))

    return handler


def _proto(u) -> None:
    u.protocol = u.source.read(1)[0]
    if u.protocol > MAX_PROTOCOL:
        raise PickleReadError(
            _("The pickle uses protocol {protocol}, newer than any Python's.").format(
                protocol=u.protocol
            )
        )


def _frame(u) -> None:
    u.source.read(8)  # frames only group opcodes; lengths are checked as they are read


def _int_line(u) -> None:
    text = u.source.readline()[:-1]
    u.stack.append({b"00": False, b"01": True}.get(text) if text in (b"00", b"01") else int(text))


def _long_line(u) -> None:
    u.stack.append(int(u.source.readline()[:-1].rstrip(b"L")))


def _long_n(size_fmt: str, size: int):
    def handler(u) -> None:
        (n,) = struct.unpack(size_fmt, u.source.read(size))
        u.stack.append(int.from_bytes(u.source.read(n), "little", signed=True))

    return handler


def _string_line(u) -> None:
    raw = u.source.readline()[:-1]
    if len(raw) < 2 or raw[0] != raw[-1] or raw[:1] not in b"\"'":
        raise PickleReadError(_("The pickle holds a malformed STRING."))
    u.stack.append(_decode(codecs.escape_decode(raw[1:-1])[0]))


def _unicode_line(u) -> None:
    u.stack.append(u.source.readline()[:-1].decode("raw-unicode-escape"))


def _global(u) -> None:
    module = _text_line(u)
    name = _text_line(u)
    u.stack.append(u._find_class(module, name))


def _stack_global(u) -> None:
    name, module = u.stack.pop(), u.stack.pop()
    if not isinstance(name, str) or not isinstance(module, str):
        raise PickleReadError(_("The pickle's STACK_GLOBAL names are not text."))
    u.stack.append(u._find_class(module, name))


def _ext(size_fmt: str, size: int):
    def handler(u) -> None:
        (code,) = struct.unpack(size_fmt, u.source.read(size))
        ref = GlobalRef("copyreg", f"<extension {code}>")
        u.globals_seen.setdefault(ref.qualified_name, (ref.module, ref.name))
        u.stack.append(ref)

    return handler


def _reduce(u) -> None:
    args = u.stack.pop()
    func = u.stack.pop()
    if not isinstance(args, tuple):
        raise PickleReadError(_("The pickle's REDUCE arguments are not a tuple."))
    u.stack.append(u._call(func, args))


def _newobj(u) -> None:
    args = u.stack.pop()
    cls = u.stack.pop()
    u.stack.append(u._new_object(cls, tuple(args)))


def _newobj_ex(u) -> None:
    kwargs, args, cls = u.stack.pop(), u.stack.pop(), u.stack.pop()
    u.stack.append(u._new_object(cls, tuple(args), dict(kwargs)))


def _inst(u) -> None:
    cls = u._find_class(_text_line(u), _text_line(u))
    args = tuple(u._pop_mark())
    u.stack.append(u._call(cls, args))


def _obj(u) -> None:
    items = u._pop_mark()
    u.stack.append(u._call(items[0], tuple(items[1:])))


def _build(u) -> None:
    state = u.stack.pop()
    u._build(u.stack[-1], state)


def _persistent(u, pid) -> None:
    if u.persistent_load is None:
        raise PickleReadError(_("The pickle refers to stored data, but it is not a torch file."))
    u.stack.append(u.persistent_load(pid))


def _set_items(target, pairs: list) -> None:
    if not isinstance(target, dict | RecordedState):
        raise PickleReadError(
            _("The pickle sets items on a {type}.").format(type=type(target).__name__)
        )
    for key, value in pairs:
        target[key] = value


def _append_items(target, items: list) -> None:
    if isinstance(target, list | deque | RecordedState):
        target.extend(items)
    elif isinstance(target, set):
        target.update(items)
    else:
        raise PickleReadError(
            _("The pickle appends to a {type}.").format(type=type(target).__name__)
        )


def _setitems(u) -> None:
    items = u._pop_mark()
    _set_items(u.stack[-1], list(zip(items[::2], items[1::2], strict=True)))


def _setitem(u) -> None:
    value, key = u.stack.pop(), u.stack.pop()
    _set_items(u.stack[-1], [(key, value)])


def _put(u, index: int) -> None:
    u.memo[index] = u.stack[-1]


def _get(u, index: int) -> None:
    u.stack.append(u.memo[index])


def _mark(u) -> None:
    u.marks.append(u.stack)
    u.stack = []


def _from_mark(u, kind) -> None:
    items = u._pop_mark()  # first: it puts back the stack below the mark
    u.stack.append(kind(items))


def _dict_from_mark(u) -> None:
    items = u._pop_mark()
    u.stack.append(dict(zip(items[::2], items[1::2], strict=True)))


def _tuple_n(n: int):
    def handler(u) -> None:
        items = tuple(u.stack[-n:]) if n else ()
        del u.stack[len(u.stack) - n :]
        u.stack.append(items)

    return handler


def _no_buffers(u) -> None:
    raise PickleReadError(_("The pickle needs out-of-band buffers (protocol 5) it does not carry."))


def _line_index(u) -> int:
    return int(u.source.readline()[:-1])


def _u8(u) -> int:
    return u.source.read(1)[0]


def _u32(u) -> int:
    return struct.unpack("<I", u.source.read(4))[0]


DISPATCH = {
    ord("("): _mark, ord("."): lambda u: STOP, ord("0"): lambda u: u.stack.pop(),
    ord("1"): lambda u: u._pop_mark(), ord("2"): lambda u: u.stack.append(u.stack[-1]),
    ord("F"): lambda u: u.stack.append(float(u.source.readline()[:-1])),
    ord("I"): _int_line, ord("J"): _unpack("<i", 4), ord("K"): _unpack("<B", 1),
    ord("L"): _long_line, ord("M"): _unpack("<H", 2), ord("N"): _push(None),
    ord("P"): lambda u: _persistent(u, _text_line(u)),
    ord("Q"): lambda u: _persistent(u, u.stack.pop()), ord("R"): _reduce, ord("S"): _string_line,
    ord("T"): _sized("<i", 4, _decode), ord("U"): _sized("<B", 1, _decode),
    ord("V"): _unicode_line,
    ord("X"): _sized("<I", 4, lambda b: b.decode("utf-8", "surrogatepass")),
    ord("a"): lambda u: _append_items(u.stack[-2], [u.stack.pop()]), ord("b"): _build,
    ord("c"): _global, ord("d"): _dict_from_mark, ord("}"): lambda u: u.stack.append({}),
    ord("e"): lambda u: _append_items(u.marks[-1][-1], u._pop_mark()),
    ord("g"): lambda u: _get(u, _line_index(u)), ord("h"): lambda u: _get(u, _u8(u)),
    ord("i"): _inst, ord("j"): lambda u: _get(u, _u32(u)),
    ord("l"): lambda u: _from_mark(u, list), ord("]"): lambda u: u.stack.append([]),
    ord("o"): _obj, ord("p"): lambda u: _put(u, _line_index(u)),
    ord("q"): lambda u: _put(u, _u8(u)), ord("r"): lambda u: _put(u, _u32(u)),
    ord("s"): _setitem, ord("t"): lambda u: _from_mark(u, tuple),
    ord(")"): lambda u: u.stack.append(()), ord("u"): _setitems, ord("G"): _unpack(">d", 8),
    0x80: _proto, 0x81: _newobj, 0x82: _ext("<B", 1), 0x83: _ext("<H", 2), 0x84: _ext("<i", 4),
    0x85: _tuple_n(1), 0x86: _tuple_n(2), 0x87: _tuple_n(3), 0x88: _push(True),
    0x89: _push(False), 0x8A: _long_n("<B", 1), 0x8B: _long_n("<i", 4),
    ord("B"): _sized("<I", 4, bytes), ord("C"): _sized("<B", 1, bytes),
    0x8C: _sized("<B", 1, lambda b: b.decode("utf-8", "surrogatepass")),
    0x8D: _sized("<Q", 8, lambda b: b.decode("utf-8", "surrogatepass")),
    0x8E: _sized("<Q", 8, bytes), 0x8F: lambda u: u.stack.append(set()),
    0x90: lambda u: _append_items(u.marks[-1][-1], u._pop_mark()),
    0x91: lambda u: _from_mark(u, frozenset), 0x92: _newobj_ex,
    0x93: _stack_global, 0x94: lambda u: _put(u, len(u.memo)), 0x95: _frame,
    0x96: _sized("<Q", 8, bytearray), 0x97: _no_buffers, 0x98: lambda u: None,
}  # fmt: skip
