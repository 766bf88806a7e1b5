"""The version, in a module of its own: core, cli and ui read it without importing the package's
Python API (tensorviz/__init__.py), which opens windows."""

__version__ = "0.1.0"
