"""`make bench`: run every bench/*.py script, print its BENCH lines, write bench/RESULTS.md.

Convention: each script measures us and the anchor tool in the same run (median of 5+ runs) and
ends with one line per figure:
  BENCH <name> ours=<s> anchor=<s> ratio=<ours/anchor> goal=<=<x> PASS|MISS
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import torch

    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu}), "
        f"Python {platform.python_version()}, torch {torch.__version__}"
    )


def main() -> int:
    scripts = sorted(
        p
        for p in BENCH_DIR.glob("*.py")
        if p.name != Path(__file__).name and not p.name.startswith("_")  # _x.py: a shared module
    )
    rows, failed = [], []
    for script in scripts:
        print(f"== {script.name}", flush=True)
        result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
        lines = [line for line in result.stdout.splitlines() if line.startswith("BENCH ")]
        print("\n".join(lines) or result.stderr[-2000:], flush=True)
        if result.returncode != 0:
            failed.append(script.name)
        rows += [(script.name, line) for line in lines]
    now = datetime.datetime.now().isoformat(timespec="minutes")
    report = [
        "# Benchmark results",
        "",
        f"Written by `make bench` on {now}.",
        f"Machine: {machine()}.",
        "",
        "| script | figure | ours (s) | anchor (s) | ratio | goal | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for script, line in rows:
        parts = line.split()
        fields = dict(p.split("=", 1) for p in parts[2:-1])
        report.append(
            f"| {script} | {parts[1]} | {fields.get('ours', '')} | {fields.get('anchor', '—')} "
            f"| {fields.get('ratio', '—')} | {fields.get('goal', '')} | {parts[-1]} |"
        )
    (BENCH_DIR / "RESULTS.md").write_text("\n".join(report) + "\n", encoding="utf-8")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
