"""Build hook: puts resources/tensorviz_on_error.pth at the top of site-packages, in a regular and
in an editable install alike, so `TENSORVIZ_ON_ERROR=1 python train.py` works in a script that
never imports tensorviz (the line only reads the variable; tensorviz/api/on_error.py)."""

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

STARTUP_FILE = "resources/tensorviz_on_error.pth"


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        key = "force_include_editable" if version == "editable" else "force_include"
        build_data.setdefault(key, {})[STARTUP_FILE] = "tensorviz_on_error.pth"
