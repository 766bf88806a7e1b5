"""The environment a learner checks first: versions, devices, default dtype, threads.

Everything is read from torch itself at call time. The CLI (`tensorviz env`) and the GUI's
Help → About show the rows produced here, so both faces always agree.
"""

from __future__ import annotations

import platform
import sys
from dataclasses import asdict, dataclass, field
from importlib import metadata

import torch

from tensorviz.core.translation import _
from tensorviz.version import __version__


@dataclass(frozen=True)
class CudaDevice:
    index: int
    name: str
    total_memory_bytes: int
    capability: str


@dataclass(frozen=True)
class EnvironmentReport:
    tensorviz_version: str
    python_version: str
    platform: str
    torch_version: str
    torch_cuda_build: str | None
    cuda_available: bool
    cuda_devices: list[CudaDevice] = field(default_factory=list)
    mps_built: bool = False
    mps_available: bool = False
    default_dtype: str = "torch.float32"
    num_threads: int = 1
    num_interop_threads: int = 1
    package_versions: dict[str, str] = field(default_factory=dict)

    @property
    def devices(self) -> list[str]:
        """Every device torch reports usable, in the order a device picker should offer them."""
        names = ["cpu"] + [f"cuda:{d.index}" for d in self.cuda_devices]
        if self.mps_available:
            names.append("mps")
        return names

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) pairs in reading order, for the About dialog and `tensorviz env`."""
        cuda = _("no")
        if self.cuda_available:
            cuda = _("yes — {count} device(s), CUDA {version}").format(
                count=len(self.cuda_devices), version=self.torch_cuda_build
            )
        elif self.torch_cuda_build:
            cuda = _("no (torch built with CUDA {version}, but no device found)").format(
                version=self.torch_cuda_build
            )
        if self.mps_available:
            mps = _("yes")
        else:
            mps = _("built, but not available") if self.mps_built else _("no")
        rows = [
            ("tensorviz", self.tensorviz_version),
            ("Python", self.python_version),
            (_("Platform"), self.platform),
            ("torch", self.torch_version),
            (_("CUDA available"), cuda),
        ]
        for d in self.cuda_devices:
            gib = d.total_memory_bytes / 2**30
            rows.append((f"  cuda:{d.index}", f"{d.name} · {gib:.1f} GiB · sm {d.capability}"))
        threads = _("{intra} intra-op, {inter} inter-op").format(
            intra=self.num_threads, inter=self.num_interop_threads
        )
        rows += [
            (_("MPS available"), mps),
            (_("Devices"), ", ".join(self.devices)),
            (_("Default dtype"), self.default_dtype),
            (_("Threads"), threads),
        ]
        rows += [(name, version) for name, version in self.package_versions.items()]
        return rows

    def to_dict(self) -> dict:
        data = asdict(self)
        data["devices"] = self.devices
        return data


# Read from installed metadata so the core never imports Qt just to learn its version.
# Label → distribution name.
_REPORTED_PACKAGES = {
    "numpy": "numpy",
    "PySide6": "PySide6-Essentials",
    "pyqtgraph": "pyqtgraph",
    "networkx": "networkx",
}


def _installed_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return _("not installed")


def _cuda_devices() -> list[CudaDevice]:
    if not torch.cuda.is_available():
        return []
    devices = []
    for index in range(torch.cuda.device_count()):
        props = torch.cuda.get_device_properties(index)
        devices.append(
            CudaDevice(index, props.name, props.total_memory, f"{props.major}.{props.minor}")
        )
    return devices


def collect_environment() -> EnvironmentReport:
    mps = getattr(torch.backends, "mps", None)
    return EnvironmentReport(
        tensorviz_version=__version__,
        python_version=f"{platform.python_implementation()} {sys.version.split()[0]}",
        platform=f"{platform.system()} {platform.release()} ({platform.machine()})",
        torch_version=torch.__version__,
        torch_cuda_build=torch.version.cuda,
        cuda_available=torch.cuda.is_available(),
        cuda_devices=_cuda_devices(),
        mps_built=bool(mps and mps.is_built()),
        mps_available=bool(mps and mps.is_available()),
        default_dtype=str(torch.get_default_dtype()),
        num_threads=torch.get_num_threads(),
        num_interop_threads=torch.get_num_interop_threads(),
        package_versions={
            label: _installed_version(dist) for label, dist in _REPORTED_PACKAGES.items()
        },
    )
