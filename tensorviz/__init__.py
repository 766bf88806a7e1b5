"""tensorviz: see PyTorch tensors, strides, storage, autograd and training on real torch objects.

From your own code (importing tensorviz loads neither Qt nor torch)::

    import tensorviz
    tensorviz.show(x, loss=loss, model=model)   # the app, on your live tensors
    tensorviz.breakpoint()                      # ... on every tensor this line can see
    tensorviz.graph(loss)                       # ... on loss's autograd graph
    tensorviz.architecture(model, x)            # ... on model(x), module by module
    with tensorviz.tag_modules(): loss = model(x)  # graph(loss) then groups by nn.Module
    tensorviz.save_session("run.tvsession", x, loss=loss)   # for a machine with a display
    run = tensorviz.watch(model, optimizer)     # record your own training into runs/<time>/

`TENSORVIZ_ON_ERROR=1 python train.py` opens the app on the frame of an uncaught exception.
"""

from tensorviz.api.calls import architecture, breakpoint, graph, save_session, show, tag_modules
from tensorviz.api.on_error import install_if_asked
from tensorviz.api.watching import watch
from tensorviz.version import __version__

__all__ = [
    "__version__",
    "architecture",
    "breakpoint",
    "graph",
    "save_session",
    "show",
    "tag_modules",
    "watch",
]

install_if_asked()
