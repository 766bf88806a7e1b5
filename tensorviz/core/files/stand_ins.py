"""What our unpickler puts where a plain `pickle.load` would import and call things.

A global the file names (a class, a function) becomes a `GlobalRef`: its qualified name, never
imported. Building an object of it (NEWOBJ, `copyreg.__newobj__`) gives an `ObjectStandIn` that
records the class, the arguments and the state/items/appends the pickle would hand it (BUILD,
SETITEMS, APPENDS). Calling it (REDUCE) gives a `CallStandIn`: the callable and its arguments,
exactly what `torch.load(weights_only=False)` would run. Nothing here ever calls anything.

Access steps: the path from the loaded object to an entry mixes plain keys/indices (`obj[key]`)
with `Attr` (an attribute in an object's state, a module's parameter), `Arg`/`Kwarg` (an argument
of a call or of an object's constructor) and `Appended` (an item a list subclass received).
"""

from __future__ import annotations

from dataclasses import dataclass

from tensorviz.core.translation import _

# Callables whose call would run a shell command, Python source, or touch files or the network.
# The module decides (os.system and posix.system are one function; torch's own blocklist is
# sys/os/posix/nt); anything else a pickle calls is still listed as a call, only less loudly.
DANGEROUS_MODULES = (
    "os",
    "posix",
    "nt",
    "subprocess",
    "pty",
    "shutil",
    "socket",
    "urllib.request",
    "http.client",
    "webbrowser",
    "runpy",
    "code",
    "importlib",
    "sys",
    "ctypes",
    "pickle",
    "_pickle",
    "marshal",
    "multiprocessing",
    "asyncio",
)


def _danger_by_module() -> dict[str, str]:
    shell, program = _("runs a shell command or changes files"), _("runs a program")
    network, python = _("opens a network connection"), _("runs Python code")
    unpickles = _("unpickles more data (running it)")
    return {
        "os": shell,
        "posix": shell,
        "nt": shell,
        "subprocess": program,
        "pty": program,
        "shutil": _("changes files"),
        "socket": network,
        "urllib.request": _("reads from the network"),
        "http.client": network,
        "webbrowser": _("opens a browser"),
        "runpy": python,
        "code": python,
        "importlib": _("imports and runs a module"),
        "sys": _("changes the interpreter"),
        "ctypes": _("calls native code"),
        "pickle": unpickles,
        "_pickle": unpickles,
        "marshal": _("loads compiled code"),
        "multiprocessing": _("starts processes"),
        "asyncio": program,
    }


def _danger_by_name() -> dict[str, str]:
    python = _("runs Python code")
    return {
        "builtins.eval": python,
        "builtins.exec": python,
        "builtins.compile": _("compiles Python code"),
        "builtins.__import__": _("imports and runs a module"),
        "builtins.open": _("opens a file"),
        "builtins.breakpoint": _("starts a debugger"),
        "builtins.input": _("waits for input"),
        "builtins.getattr": _("looks up any attribute"),
        "builtins.setattr": _("changes any attribute"),
        "builtins.delattr": _("removes any attribute"),
        "builtins.globals": _("reads the interpreter's globals"),
        "builtins.vars": _("reads any namespace"),
        "torch.load": _("loads another file (running it)"),
        "torch.hub.load": _("downloads and runs code"),
        "numpy.load": _("loads another file"),
        "torch.jit.load": _("loads and runs a TorchScript program"),
    }


@dataclass(frozen=True)
class GlobalRef:
    """A class or function named by the file, never imported."""

    module: str
    name: str

    @property
    def qualified_name(self) -> str:
        return f"{self.module}.{self.name}"

    def __repr__(self) -> str:
        return self.qualified_name


@dataclass(frozen=True)
class Attr:
    name: str

    def text(self) -> str:
        return f".{self.name}"


@dataclass(frozen=True)
class Arg:
    index: int

    def text(self) -> str:
        return f"(arg {self.index})"


@dataclass(frozen=True)
class Kwarg:
    name: str

    def text(self) -> str:
        return f"({self.name}=)"


@dataclass(frozen=True)
class Appended:
    index: int

    def text(self) -> str:
        return f"(appended {self.index})"


STEPS = (Attr, Arg, Kwarg, Appended)


class RecordedState:
    """State a pickle hands an object after making it: BUILD, SETITEMS, APPENDS, ADDITEMS."""

    def __init__(self) -> None:
        self.state: object = None  # what BUILD passed (a dict of attributes, or anything)
        self.has_state = False
        self.items: dict = {}  # SETITEM(S) on a dict subclass
        self.appended: list = []  # APPEND(S) / ADDITEMS on a list or set subclass

    def set_state(self, state) -> None:
        if self.has_state and isinstance(self.state, dict) and isinstance(state, dict):
            self.state.update(state)  # two BUILDs merge, as __dict__.update would
        else:
            self.state, self.has_state = state, True

    def __setitem__(self, key, value) -> None:
        self.items[key] = value

    def append(self, value) -> None:
        self.appended.append(value)

    def extend(self, values) -> None:
        self.appended.extend(values)

    def _slot_pair(self) -> bool:
        state = self.state
        return (
            isinstance(state, tuple)
            and len(state) == 2
            and all(isinstance(part, dict | None) for part in state)
        )

    def attributes(self) -> dict:
        """The attribute dict BUILD would set (both halves of a (dict, slots) pair too)."""
        if self._slot_pair():
            return {**(self.state[0] or {}), **(self.state[1] or {})}
        return self.state if isinstance(self.state, dict) else {}

    def opaque_state(self):
        """State that is not an attribute dict (what a custom __getstate__ returned), or None."""
        if not self.has_state or isinstance(self.state, dict) or self._slot_pair():
            return None
        return self.state

    def __hash__(self) -> int:  # usable as a dict key, as the real object would be
        return id(self)

    def __eq__(self, other) -> bool:
        return self is other


class ObjectStandIn(RecordedState):
    """An object of a class the file names, made without running any of its code."""

    def __init__(self, cls: GlobalRef, args: tuple = (), kwargs: dict | None = None) -> None:
        super().__init__()
        self.cls, self.args, self.kwargs = cls, tuple(args), dict(kwargs or {})

    @property
    def class_name(self) -> str:
        return self.cls.qualified_name

    def is_module(self) -> bool:
        """A torch.nn.Module pickled whole, or a module of a TorchScript archive."""
        attrs = self.attributes()
        if self.cls.module.startswith("__torch__") and isinstance(self.state, dict):
            return True
        return isinstance(attrs.get("_modules"), dict) and isinstance(
            attrs.get("_parameters"), dict
        )

    def module_members(self) -> dict:
        """Parameters, buffers and submodules by name, as `module.name` reaches them."""
        attrs = self.attributes()
        if "_modules" not in attrs:  # TorchScript: tensors and submodules are attributes
            return {k: v for k, v in attrs.items() if _is_member(v)}
        found = {}
        for part in ("_parameters", "_buffers", "_modules"):
            found.update({k: v for k, v in (attrs.get(part) or {}).items() if v is not None})
        return found

    def member(self, step):
        if isinstance(step, Attr):
            if self.is_module() and step.name in self.module_members():
                return self.module_members()[step.name]
            attrs = self.attributes()
            if step.name in attrs:
                return attrs[step.name]
            if step.name == "__state__":
                return self.state
            raise KeyError(step.name)
        if isinstance(step, Arg):
            return self.args[step.index]
        if isinstance(step, Kwarg):
            return self.kwargs[step.name]
        if isinstance(step, Appended):
            return self.appended[step.index]
        return self.items[step]

    def __repr__(self) -> str:
        return _("<{cls} object (not built)>").format(cls=self.class_name)


class CallStandIn(RecordedState):
    """A call the pickle asks for, recorded with its arguments and never made."""

    def __init__(self, func, args: tuple = (), kwargs: dict | None = None, problem: str = ""):
        super().__init__()
        self.func, self.args, self.kwargs = func, tuple(args), dict(kwargs or {})
        self.problem = problem  # set when a known data constructor refused its arguments

    @property
    def callable_name(self) -> str:
        func = self.func
        if isinstance(func, GlobalRef):
            return func.qualified_name
        if isinstance(func, CallStandIn):
            return f"({func.text()})"
        if isinstance(func, ObjectStandIn):
            return _("(a {cls} object)").format(cls=func.class_name)
        name = getattr(func, "__qualname__", None) or type(func).__name__
        return f"{getattr(func, '__module__', '') or 'builtins'}.{name}"

    @property
    def danger(self) -> str | None:
        """What the call would do, in words, for callables known to run code; else None."""
        if self.problem:
            return None
        name = self.callable_name
        if (by_name := _danger_by_name().get(name)) is not None:
            return by_name
        module = name.rpartition(".")[0]
        while module:
            if module in DANGEROUS_MODULES:
                return _danger_by_module()[module]
            module = module.rpartition(".")[0]
        return None

    def text(self, limit: int = 160) -> str:
        """`posix.system('touch /tmp/x')` — arguments shown short, never all of a big value."""
        each = max(60, limit - len(self.callable_name) - 4)
        parts = [short_repr(a, each) for a in self.args]
        parts += [f"{k}={short_repr(v, each)}" for k, v in self.kwargs.items()]
        text = f"{self.callable_name}({', '.join(parts)})"
        return text if len(text) <= limit else text[: limit - 2] + "…)"

    def member(self, step):
        if isinstance(step, Arg):
            return self.args[step.index]
        if isinstance(step, Kwarg):
            return self.kwargs[step.name]
        if isinstance(step, Attr):
            return self.attributes()[step.name] if step.name != "__state__" else self.state
        if isinstance(step, Appended):
            return self.appended[step.index]
        return self.items[step]

    def __repr__(self) -> str:
        return _("<call {call} (not made)>").format(call=self.text())


def _is_member(value) -> bool:
    return isinstance(value, ObjectStandIn) or type(value).__name__ in ("Tensor", "Parameter")


def short_repr(value, limit: int = 60) -> str:
    """A short repr for call arguments: strings in full up to `limit`, containers by size."""
    if isinstance(value, str | bytes):
        text = repr(value)
        return text if len(text) <= limit else text[: limit - 2] + "…" + text[0 if isinstance(
            value, str) else 1]  # fmt: skip
    if isinstance(value, GlobalRef | ObjectStandIn):
        return repr(value)
    if isinstance(value, CallStandIn):
        return value.text(limit)
    if isinstance(value, list | tuple | dict | set):
        if len(value) <= 4 and all(isinstance(v, int | float | str | bool | None) for v in value):
            text = repr(value)
            if len(text) <= limit:
                return text
        return _("<{type} of {n}>").format(type=type(value).__name__, n=len(value))
    if type(value).__module__ == "torch" and type(value).__name__ in ("Tensor", "Parameter"):
        return _("<tensor {shape}>").format(shape=list(value.shape))
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def apply_step(obj, step):
    """One step of an access path (see the module docstring)."""
    if isinstance(obj, ObjectStandIn | CallStandIn):
        return obj.member(step)
    if isinstance(step, Attr):
        return vars(obj)[step.name]  # real objects here are data types we built (Namespace)
    if isinstance(step, STEPS):
        raise KeyError(step)
    return obj[step]
