"""Our own unpickler: every opcode of pickle protocols 0–5; it never runs anything from the file.

A global is looked up in data_types' short list of pure data constructors; any other global is a
`GlobalRef` that is never imported. REDUCE/NEWOBJ/INST/OBJ on a GlobalRef make stand-ins that record
what a plain `pickle.load` would have called, BUILD/SETITEMS/APPENDS on them are recorded, never
applied (stand_ins.py). Sizes the file claims are checked against the bytes that are really there
before anything is allocated, so a hostile length is one sentence, not a gigabyte.
"""

from __future__ import annotations

import _compat_pickle
import struct
from collections import OrderedDict

import torch

from tensorviz.core.files.data_types import (
    BUILDABLE_CLASSES,
    data_globals,
    lazy_name,
    torch_enum,
)
from tensorviz.core.files.pickle_opcodes import DISPATCH, STOP, PickleReadError
from tensorviz.core.files.stand_ins import CallStandIn, GlobalRef, ObjectStandIn, RecordedState
from tensorviz.core.translation import _

_ALLOCATING = {"builtins.list", "builtins.tuple", "builtins.set", "builtins.frozenset",
               "builtins.bytes", "builtins.bytearray", "builtins.dict", "builtins.str",
               "collections.deque", "collections.Counter"}  # fmt: skip
_ALLOCATION_LIMIT = 10_000_000


class ByteSource:
    """Reads from bytes; asking for more than is there is an error before any allocation."""

    def __init__(self, data: bytes, start: int = 0) -> None:
        self.data, self.pos, self.size = bytes(data), start, len(data)

    def read(self, n: int) -> bytes:
        pos = self.pos
        if n < 0 or pos + n > self.size:
            raise PickleReadError(_("The pickle ends inside its data (truncated or damaged)."))
        self.pos = pos + n
        return self.data[pos : pos + n]

    def readline(self) -> bytes:
        end = self.data.find(b"\n", self.pos)
        if end < 0:
            raise PickleReadError(_("The pickle ends inside a text field (truncated)."))
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
            raise PickleReadError(_("The pickle ends inside its data (truncated or damaged)."))
        chunk = self.f.read(n)
        if len(chunk) != n:
            raise PickleReadError(_("The file ended while it was read (changed on disk?)."))
        return chunk

    def readline(self) -> bytes:
        line = self.f.readline(1 << 20)
        if not line.endswith(b"\n"):
            raise PickleReadError(_("The pickle ends inside a text field (truncated)."))
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
        # types of real objects given state by BUILD: torch.load(weights_only=True) must allow
        # each of them too (a NumPy dtype's class, say), beside the globals the pickle names
        self.built_types: dict[str, type] = {}
        self.protocol = 0
        self.opcodes_seen: set[int] = set()  # (for what torch's weights-only reader lacks)
        self.memo: dict[int, object] = {}
        self.stack: list = []
        self.marks: list[list] = []

    def load(self):
        read, seen = self.source.read, self.opcodes_seen
        while True:
            code = read(1)[0]
            seen.add(code)
            handler = DISPATCH.get(code)
            if handler is None:
                raise PickleReadError(
                    _("The pickle holds an unknown opcode {opcode}.").format(opcode=f"0x{code:02x}")
                )
            try:
                if handler(self) is STOP:
                    return self.stack.pop()
            except PickleReadError:
                raise
            except (IndexError, KeyError) as error:  # stack underflow, a missing memo entry
                raise PickleReadError(
                    _("The pickle is damaged (opcode {opcode}: {error}).").format(
                        opcode=f"0x{code:02x}", error=type(error).__name__
                    )
                ) from None
            except (TypeError, ValueError, OverflowError, UnicodeDecodeError, struct.error):
                raise PickleReadError(
                    _("The pickle is damaged (opcode {opcode}).").format(opcode=f"0x{code:02x}")
                ) from None

    # --- helpers ---------------------------------------------------------------------------

    def _pop_mark(self) -> list:
        items = self.stack
        self.stack = self.marks.pop()
        return items

    def _find_class(self, module: str, name: str):
        if self.protocol < 3:  # Python 2 names, mapped as pickle.load maps them (fix_imports)
            if (module, name) in _compat_pickle.NAME_MAPPING:
                module, name = _compat_pickle.NAME_MAPPING[(module, name)]
            elif module in _compat_pickle.IMPORT_MAPPING:
                module = _compat_pickle.IMPORT_MAPPING[module]
        full = f"{module}.{name}"
        self.globals_seen.setdefault(full, (module, name))
        if full in self.known:
            return self.known[full]
        if (found := lazy_name(full)) is not None:
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
        self.problems.append(
            _("{callable} was not built ({why})").format(callable=call.callable_name, why=why)
        )
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
        if type(inst) not in (torch.Tensor, torch.nn.Parameter, OrderedDict):
            kind = type(inst)
            self.built_types.setdefault(f"{kind.__module__}.{kind.__qualname__}", kind)
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
                _("The state of a {type} could not be set ({error})").format(
                    type=type(inst).__name__, error=f"{type(error).__name__}: {_first_line(error)}"
                )
            )


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
    text = lines[0] if lines else _("no details")
    return text if len(text) <= 120 else text[:119] + "…"


_TENSOR_CLASSES = frozenset(
    [*torch._tensor_classes, *torch._storage_classes, torch.Tensor, torch.UntypedStorage]
)


__all__ = ["ByteSource", "FileSource", "PickleReadError", "SafeUnpickler"]
