"""Where a run is written: `runs/<YYYY-MM-DD-HHMMSS>/` (or under the asked folder), made unique,
and — in a distributed job — the same folder for every rank: under torchrun every rank derives
it from the launch's run id and its agent's start time (no collective call, so a watch() on
rank 0 alone cannot hang); else, with a process group up, rank 0 chooses the name and the others
receive it (broadcast_object_list: every rank must call watch()); else RANK/WORLD_SIZE alone: the
parent's start time and MASTER_PORT."""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PARENT = "runs"


@dataclass(frozen=True)
class RankPlace:
    rank: int
    world_size: int
    group_ready: bool  # torch.distributed is initialized: names can be broadcast


def rank_place() -> RankPlace:
    try:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            return RankPlace(dist.get_rank(), dist.get_world_size(), True)
    except (ImportError, RuntimeError, ValueError):
        pass
    try:
        rank = int(os.environ.get("RANK", "0"))
        world = int(os.environ.get("WORLD_SIZE", "1"))
    except ValueError:
        rank, world = 0, 1
    return RankPlace(max(rank, 0), max(world, 1), False)


def _time_name(moment: datetime.datetime) -> str:
    return moment.strftime("%Y-%m-%d-%H%M%S")


def unique_folder(parent: Path, name: str) -> Path:
    """parent/name, or parent/name-2, -3, … when taken; made here (exclusive, so two processes
    starting in the same second get two folders)."""
    parent.mkdir(parents=True, exist_ok=True)
    number = 1
    while True:
        candidate = parent / (name if number == 1 else f"{name}-{number}")
        try:
            candidate.mkdir()
            return candidate
        except FileExistsError:
            number += 1


def _launch_start_name(*, elastic_only: bool) -> str | None:
    """A name every rank of one launch derives alike, without talking: torchrun's run id and
    the start time of its agent (the ranks' shared parent); without torchrun (`elastic_only`
    False), the parent's start time and MASTER_PORT."""
    run_id = os.environ.get("TORCHELASTIC_RUN_ID", "")
    started = _parent_start_time()
    stamp = _time_name(started) if started is not None else "distributed"
    if run_id not in ("", "none"):
        return f"{stamp}-{run_id[:8]}"
    if elastic_only:
        return None
    port = os.environ.get("MASTER_PORT")
    return f"{stamp}-{port}" if port else stamp


def _parent_start_time() -> datetime.datetime | None:
    try:
        stat = Path(f"/proc/{os.getppid()}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(stat[19])  # field 22, starttime, in clock ticks after boot
        boot = next(
            float(line.split()[1])
            for line in Path("/proc/stat").read_text().splitlines()
            if line.startswith("btime")
        )
        seconds = boot + ticks / os.sysconf("SC_CLK_TCK")
        return datetime.datetime.fromtimestamp(round(seconds))
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def choose_run_folder(log_dir: str | os.PathLike | None, place: RankPlace) -> Path:
    parent = Path(log_dir) if log_dir is not None else Path(DEFAULT_PARENT)
    if place.world_size <= 1:
        return unique_folder(parent, _time_name(datetime.datetime.now()))
    name = _launch_start_name(elastic_only=True)  # torchrun: no collective call needed
    if name is None and place.group_ready:  # every rank must call watch(): rank 0 names it
        import torch.distributed as dist

        chosen = [None]
        if place.rank == 0:
            chosen = [str(unique_folder(parent, _time_name(datetime.datetime.now())))]
        dist.broadcast_object_list(chosen, src=0)
        folder = Path(chosen[0])
    else:
        folder = parent / (name or _launch_start_name(elastic_only=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
