"""The Python API's own code (`tensorviz.show`, `breakpoint`, `graph`, `save_session`, the
TENSORVIZ_ON_ERROR hook): the caller's call read from its frame, its objects made workspace
entries, and the window that shows them. It stands beside tensorviz.app at the top of the
layers: it composes core and ui, and imports the ui only when a window opens."""
