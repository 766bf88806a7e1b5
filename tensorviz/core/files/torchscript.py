"""TorchScript archives (torch.jit.save) read as data, never loaded: the module's attributes
(parameters, buffers, submodules, plain values) from data.pkl, its tensor constants from
constants.pkl, both with our unpickler; its code files as text. `torch.jit.load` would compile
that code and run it when the module is called; tensorviz only shows it.
"""

from __future__ import annotations

from tensorviz.core.files.pickle_files import LoadedPickle, open_zip_reader, read_zip_pickle
from tensorviz.core.files.tree import TextFile
from tensorviz.core.translation import _

MAX_CODE_BYTES = 1 << 20


def read_torchscript(path: str, source) -> LoadedPickle:
    """{"module": ..., "constants": ..., "code": {file: TextFile}} of the archive at `path`
    (`source`: what torch's zip reader opens, the path or an open file)."""
    reader = open_zip_reader(source)
    module = read_zip_pickle(path, reader, "data.pkl", "data")
    result = LoadedPickle(records=dict(module.records), unpicklers=list(module.unpicklers),
                          notes=list(module.notes), protocol=module.protocol,
                          weights_only_opcodes=module.weights_only_opcodes)  # fmt: skip
    content = {"module": module.obj}
    if reader.has_record("constants.pkl"):
        constants = read_zip_pickle(path, reader, "constants.pkl", "constants")
        result.records.update(constants.records)
        result.unpicklers += constants.unpicklers
        content["constants"] = constants.obj
    code = {}
    for name in sorted(reader.get_all_records()):
        if name.startswith("code/") and name.endswith(".py"):
            size = reader.get_record_size(name)
            if size > MAX_CODE_BYTES:
                hidden = _("(not shown: {nbytes} bytes)").format(nbytes=f"{size:,}")
                code[name.removeprefix("code/")] = TextFile(hidden, size)
                continue
            text = reader.get_record(name).decode("utf-8", "replace")
            code[name.removeprefix("code/")] = TextFile(text, size)
    content["code"] = code
    result.obj = content
    result.notes.append(
        _(
            "A TorchScript archive: its parameters, buffers and constants are read as data and its "
            "code is shown as text; tensorviz never runs it (torch.jit.load would)."
        )
    )
    return result
