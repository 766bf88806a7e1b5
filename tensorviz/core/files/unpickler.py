"""Our own unpickler: every opcode of pickle protocols 0–5; it never runs anything from the file.

A global is looked up in data_types' short list of pure data constructors; any other global is a
`GlobalRef` that is never imported. REDUCE/NEWOBJ/INST/OBJ on a GlobalRef make stand-ins that record
what a plain `pickle.load` would have called, BUILD/SETITEMS/APPENDS on them are recorded, never
applied (stand_ins.py). Sizes the file claims are checked against the bytes that are really there
before anything is allocated, so a hostile length is one sentence, not a gigabyte.
"""

from __future__ import annotations

import codecs
import struct
from collections import deque

import torch

from tensorviz.core.files.data_types import (
    BUILDABLE_CLASSES,
    LAZY_TORCH_NAMES,
    data_globals,
    lazy_torch_name,
    torch_enum,
)
from tensorviz.core.files.stand_ins import CallStandIn, GlobalRef, ObjectStandIn, RecordedState

MAX_PROTOCOL = 5
_ALLOCATING = {"builtins.list", "builtins.tuple", "builtins.set", "builtins.frozenset",
               "builtins.bytes", "builtins.bytearray", "builtins.dict", "builtins.str",
               "collections.deque", "collections.Counter"}  # fmt: skip
_ALLOCATION_LIMIT = 10_000_000


class PickleReadError(Exception):
    """The pickle cannot be read; str() is one sentence."""


class ByteSource:
    """Reads from bytes; asking for more than is there is an error before any allocation."""

    def __init__(self, data: bytes | memoryview, start: int = 0) -> None:
        self.data, self.pos = memoryview(data), start

    def read(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise PickleReadError("The pickle ends inside its data (truncated or damaged).")
        chunk = self.data[self.pos : self.pos + n].tobytes()
        self.pos += n
        return chunk

    def readline(self) -> bytes:
        end = self.data.obj.find(b"\n", self.pos) if isinstance(self.data.obj, bytes) else -1
        if end < 0:
            tail = self.data[self.pos :].tobytes()
            end = tail.find(b"\n")
            if end < 0:
                raise PickleReadError("The pickle ends inside a text field (truncated).")
            end += self.pos
        return self.read(end + 1 - self.pos)


class FileSource(ByteSource):
    """Reads from an open file of known size (the legacy torch.save layout: pickles then data)."""

    def __init__(self, f, size: int) -> None:
        self.f, self.size = f, size

    @property
    def pos(self) -> int:
        return self.f.tell()

    def read(self, n: int) -> bytes:
        if n < 0 or self.f.tell() + n > self.size:
            raise PickleReadError("The pickle ends inside its data (truncated or damaged).")
        chunk = self.f.read(n)
        if len(chunk) != n:
            raise PickleReadError("The file ended while it was read (changed on disk?).")
        return chunk

    def readline(self) -> bytes:
        line = self.f.readline(1 << 20)
        if not line.endswith(b"\n"):
            raise PickleReadError("The pickle ends inside a text field (truncated).")
        return line


class SafeUnpickler:
    """`load()` one pickle from `source`. Afterwards: `globals_seen` (every qualified name the
    pickle imports, in order), `calls` (CallStandIns a plain load would call), `objects`
    (ObjectStandIns), `problems` (data constructors that refused their arguments), `protocol`."""

    def __init__(self, source: ByteSource, materializer, persistent_load=None) -> None:
        self.source = source
        self.persistent_load = persistent_load
        self.known = data_globals(materializer)
        self.globals_seen: dict[str, tuple[str, str]] = {}  # full name → (module, name)
        self.calls: list[CallStandIn] = []
        self.objects: list[ObjectStandIn] = []
        self.problems: list[str] = []
        self.protocol = 0
        self.memo: dict[int, object] = {}
        self.stack: list = []
        self.marks: list[list] = []

    def load(self):
        read = self.source.read
        while True:
            code = read(1)[0]
            handler = _DISPATCH.get(code)
            if handler is None:
                raise PickleReadError(f"The pickle holds an unknown opcode 0x{code:02x}.")
            try:
                if handler(self) is _STOP:
                    return self.stack.pop()
            except PickleReadError:
                raise
            except (IndexError, KeyError) as error:  # stack underflow, a missing memo entry
                raise PickleReadError(
                    f"The pickle is damaged (opcode 0x{code:02x}: {type(error).__name__})."
                ) from None
            except (TypeError, ValueError, OverflowError, UnicodeDecodeError, struct.error):
                raise PickleReadError(f"The pickle is damaged (opcode 0x{code:02x}).") from None

    # --- helpers ---------------------------------------------------------------------------

    def _pop_mark(self) -> list:
        items = self.stack
        self.stack = self.marks.pop()
        return items

    def _find_class(self, module: str, name: str):
        from torch._utils import IMPORT_MAPPING, NAME_MAPPING

        if (module, name) in NAME_MAPPING:
            module, name = NAME_MAPPING[(module, name)]
        elif module in IMPORT_MAPPING:
            module = IMPORT_MAPPING[module]
        full = f"{module}.{name}"
        self.globals_seen.setdefault(full, (module, name))
        if full in self.known:
            return self.known[full]
        if full in LAZY_TORCH_NAMES and (found := lazy_torch_name(full)) is not None:
            self.known[full] = found
            return found
        return GlobalRef(module, name)

    def _call(self, func, args: tuple, kwargs: dict | None = None):
        """What REDUCE (or INST/OBJ) gives: built for real, or recorded as a call."""
        if isinstance(func, GlobalRef):
            special = self._special_call(func, args, kwargs or {})
            if special is not None:
                return special
            call = CallStandIn(func, args, kwargs)
            self.calls.append(call)
            return call
        if isinstance(func, RecordedState):
            call = CallStandIn(func, args, kwargs)
            self.calls.append(call)
            return call
        name = _name_of(func)
        if func in _TENSOR_CLASSES and args:
            return self._refused(func, args, "a tensor or storage constructor allocates memory")
        if name in _ALLOCATING and any(_huge(a) for a in args):
            return self._refused(func, args, "it would allocate more than 10 million items")
        try:
            return func(*args, **(kwargs or {}))
        except Exception as error:  # noqa: BLE001 — a constructor refusing odd data
            return self._refused(func, args, f"{type(error).__name__}: {_first_line(error)}")

    def _refused(self, func, args, why: str) -> CallStandIn:
        named = next((GlobalRef(*self.globals_seen[n]) for n, v in self.known.items()
                      if v is func and n in self.globals_seen), func)  # fmt: skip
        call = CallStandIn(named, args, problem=why)
        self.problems.append(f"{call.callable_name} was not built ({why})")
        return call

    def _special_call(self, func: GlobalRef, args: tuple, kwargs: dict):
        name = func.qualified_name
        if name == "builtins.getattr" and len(args) == 2 and isinstance(args[1], str):
            if isinstance(args[0], GlobalRef):  # a name lookup (nested classes, enum members)
                return GlobalRef(args[0].module, f"{args[0].name}.{args[1]}")
        if name == "copyreg._reconstructor" and len(args) == 3:
            cls, base, state = args
            if base is object and state is None:
                return self._new_object(cls, ())
        if name == "copyreg.__newobj__" and args:
            return self._new_object(args[0], args[1:])
        if name == "copyreg.__newobj_ex__" and len(args) == 3:
            return self._new_object(args[0], tuple(args[1]), dict(args[2]))
        members = torch_enum(func)
        if members is not None:
            try:
                return members(*args)  # an enum member looked up by value: no code runs
            except Exception:  # noqa: BLE001 — not a member: recorded like any call
                return None
        return None

    def _new_object(self, cls, args: tuple, kwargs: dict | None = None):
        """NEWOBJ: cls.__new__(cls, *args) for our data classes, a stand-in for the rest."""
        if isinstance(cls, GlobalRef):
            obj = ObjectStandIn(cls, args, kwargs)
            self.objects.append(obj)
            return obj
        if cls is torch.nn.Parameter:
            return torch.nn.Parameter(*args)
        if isinstance(cls, type) and issubclass(cls, BUILDABLE_CLASSES) and not kwargs:
            if cls in _TENSOR_CLASSES and args:
                return self._refused(cls, args, "a tensor constructor allocates memory")
            try:
                return cls.__new__(cls, *args)
            except Exception as error:  # noqa: BLE001
                return self._refused(cls, args, f"{type(error).__name__}: {_first_line(error)}")
        return self._call(cls, tuple(args), kwargs)

    def _build(self, inst, state) -> None:
        if isinstance(inst, RecordedState):
            inst.set_state(state)
            return
        try:
            if type(inst) is torch.Tensor:  # legacy: a tensor's storage, offset, size, stride
                inst.set_(*state)
            elif type(inst) is torch.nn.Parameter:
                inst.__setstate__(state)
            elif hasattr(inst, "__setstate__") and not _plain_setstate(inst):
                inst.__setstate__(state)
            elif hasattr(inst, "__dict__"):
                slots = None
                if isinstance(state, tuple) and len(state) == 2:
                    state, slots = state
                if state:
                    inst.__dict__.update(state)
                for key, value in (slots or {}).items():
                    setattr(inst, key, value)
            else:
                raise TypeError(type(inst).__name__)
        except Exception as error:  # noqa: BLE001 — our data type refusing odd state
            self.problems.append(
                f"The state of a {type(inst).__name__} could not be set "
                f"({type(error).__name__}: {_first_line(error)})"
            )


_STOP = object()


def _name_of(func) -> str:
    return f"{getattr(func, '__module__', '')}.{getattr(func, '__qualname__', '')}"


def _huge(value) -> bool:
    return (
        isinstance(value, range)
        and len(value) > _ALLOCATION_LIMIT
        or (isinstance(value, int) and not isinstance(value, bool) and value > _ALLOCATION_LIMIT)
    )


def _plain_setstate(inst) -> bool:
    """object's own __setstate__ (3.11+ has none; some types inherit a trivial one)."""
    return getattr(type(inst), "__setstate__", None) is getattr(object, "__setstate__", None)


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    text = lines[0] if lines else "no details"
    return text if len(text) <= 120 else text[:119] + "…"


_TENSOR_CLASSES = frozenset(
    [*torch._tensor_classes, *torch._storage_classes, torch.Tensor, torch.UntypedStorage]
)


def _text_line(u: SafeUnpickler) -> str:
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
    def handler(u: SafeUnpickler) -> None:
        (n,) = struct.unpack(fmt, u.source.read(size))
        u.stack.append(make(u.source.read(n)))

    return handler


def _proto(u: SafeUnpickler) -> None:
    u.protocol = u.source.read(1)[0]
    if u.protocol > MAX_PROTOCOL:
        raise PickleReadError(f"The pickle uses protocol {u.protocol}, newer than any Python's.")


def _frame(u: SafeUnpickler) -> None:
    u.source.read(8)  # frames only group opcodes; lengths are checked as they are read


def _int_line(u: SafeUnpickler) -> None:
    text = u.source.readline()[:-1]
    u.stack.append({b"00": False, b"01": True}.get(text) if text in (b"00", b"01") else int(text))


def _long_line(u: SafeUnpickler) -> None:
    u.stack.append(int(u.source.readline()[:-1].rstrip(b"L")))


def _long_n(size_fmt: str, size: int):
    def handler(u: SafeUnpickler) -> None:
        (n,) = struct.unpack(size_fmt, u.source.read(size))
        u.stack.append(int.from_bytes(u.source.read(n), "little", signed=True))

    return handler


def _string_line(u: SafeUnpickler) -> None:
    raw = u.source.readline()[:-1]
    if len(raw) < 2 or raw[0] != raw[-1] or raw[:1] not in b"\"'":
        raise PickleReadError("The pickle holds a malformed STRING.")
    u.stack.append(_decode(codecs.escape_decode(raw[1:-1])[0]))


def _unicode_line(u: SafeUnpickler) -> None:
    u.stack.append(u.source.readline()[:-1].decode("raw-unicode-escape"))


def _global(u: SafeUnpickler) -> None:
    module = _text_line(u)
    name = _text_line(u)
    u.stack.append(u._find_class(module, name))


def _stack_global(u: SafeUnpickler) -> None:
    name, module = u.stack.pop(), u.stack.pop()
    if not isinstance(name, str) or not isinstance(module, str):
        raise PickleReadError("The pickle's STACK_GLOBAL names are not text.")
    u.stack.append(u._find_class(module, name))


def _ext(size_fmt: str, size: int):
    def handler(u: SafeUnpickler) -> None:
        (code,) = struct.unpack(size_fmt, u.source.read(size))
        ref = GlobalRef("copyreg", f"<extension {code}>")
        u.globals_seen.setdefault(ref.qualified_name, (ref.module, ref.name))
        u.stack.append(ref)

    return handler


def _reduce(u: SafeUnpickler) -> None:
    args = u.stack.pop()
    func = u.stack.pop()
    if not isinstance(args, tuple):
        raise PickleReadError("The pickle's REDUCE arguments are not a tuple.")
    u.stack.append(u._call(func, args))


def _newobj(u: SafeUnpickler) -> None:
    args = u.stack.pop()
    cls = u.stack.pop()
    u.stack.append(u._new_object(cls, tuple(args)))


def _newobj_ex(u: SafeUnpickler) -> None:
    kwargs, args, cls = u.stack.pop(), u.stack.pop(), u.stack.pop()
    u.stack.append(u._new_object(cls, tuple(args), dict(kwargs)))


def _inst(u: SafeUnpickler) -> None:
    cls = u._find_class(_text_line(u), _text_line(u))
    args = tuple(u._pop_mark())
    u.stack.append(u._call(cls, args))


def _obj(u: SafeUnpickler) -> None:
    items = u._pop_mark()
    u.stack.append(u._call(items[0], tuple(items[1:])))


def _build(u: SafeUnpickler) -> None:
    state = u.stack.pop()
    u._build(u.stack[-1], state)


def _persistent(u: SafeUnpickler, pid) -> None:
    if u.persistent_load is None:
        raise PickleReadError("The pickle refers to stored data, but it is not a torch file.")
    u.stack.append(u.persistent_load(pid))


def _set_items(target, pairs: list) -> None:
    if not isinstance(target, dict | RecordedState):
        raise PickleReadError(f"The pickle sets items on a {type(target).__name__}.")
    for key, value in pairs:
        target[key] = value


def _append_items(target, items: list) -> None:
    if isinstance(target, list | deque | RecordedState):
        target.extend(items)
    elif isinstance(target, set):
        target.update(items)
    else:
        raise PickleReadError(f"The pickle appends to a {type(target).__name__}.")


def _setitems(u: SafeUnpickler) -> None:
    items = u._pop_mark()
    _set_items(u.stack[-1], list(zip(items[::2], items[1::2], strict=True)))


def _setitem(u: SafeUnpickler) -> None:
    value, key = u.stack.pop(), u.stack.pop()
    _set_items(u.stack[-1], [(key, value)])


def _put(u: SafeUnpickler, index: int) -> None:
    u.memo[index] = u.stack[-1]


def _get(u: SafeUnpickler, index: int) -> None:
    u.stack.append(u.memo[index])


def _mark(u: SafeUnpickler) -> None:
    u.marks.append(u.stack)
    u.stack = []


def _from_mark(u: SafeUnpickler, kind) -> None:
    items = u._pop_mark()  # first: it puts back the stack below the mark
    u.stack.append(kind(items))


def _dict_from_mark(u: SafeUnpickler) -> None:
    items = u._pop_mark()
    u.stack.append(dict(zip(items[::2], items[1::2], strict=True)))


def _tuple_n(n: int):
    def handler(u: SafeUnpickler) -> None:
        items = tuple(u.stack[-n:]) if n else ()
        del u.stack[len(u.stack) - n :]
        u.stack.append(items)

    return handler


def _no_buffers(u: SafeUnpickler) -> None:
    raise PickleReadError("The pickle needs out-of-band buffers (protocol 5) it does not carry.")


def _line_index(u: SafeUnpickler) -> int:
    return int(u.source.readline()[:-1])


def _u8(u: SafeUnpickler) -> int:
    return u.source.read(1)[0]


def _u32(u: SafeUnpickler) -> int:
    return struct.unpack("<I", u.source.read(4))[0]


_DISPATCH = {
    ord("("): _mark, ord("."): lambda u: _STOP, ord("0"): lambda u: u.stack.pop(),
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
