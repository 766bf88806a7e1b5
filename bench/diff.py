"""Comparing two 1 GB checkpoints (100 float32 tensors; half changed slightly, a few renamed, a
few reshaped): time to our full report (keys matched, renames found by bytes, every figure of
every pair, summaries and JSON) beside the plain loop a person would write — both files opened
with torch.load(mmap=True), then torch.equal + max |Δ| per pair of the same name
(`diff_full_report`, goal <= 2.0: it maps, we must not); beside the same loop on torch.load
without mmap, the one most people write (`diff_full_report_vs_torch_load`, goal <= 1.0); beside
the plain-reads floor below (`diff_full_report_vs_reads_floor`, goal <= 1.3); and our peak
memory beside the goal's bound, `import torch` + 3 × the largest tensor. Kinds interleaved,
medians of RUNS.

A third figure is the floor of any tool that reads the files with plain reads, as we do (a
memory mapping turns a checkpoint rewritten during the comparison into SIGBUS): both files read
once in 1 MB blocks into one buffer, nothing computed, beside the same anchor.

Memory is each child's VmHWM (the peak resident set of its own address space; exec starts it
afresh, unlike ru_maxrss, which Linux carries over from the parent). Children are spawned from
this parent, which never imports torch and stays small. A control child that loads both files
whole must exceed the bound, or the measure is broken and the script fails.

BENCH_DIFF_MB sets each file's size (default 1000).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 5
TENSORS = 100
GOAL_MMAP_LOOP, GOAL_READS_FLOOR, GOAL_TORCH_LOAD, GOAL_RSS = 2.0, 1.3, 1.0, 1.0  # issue 27
ROWS = 1024
CHANGED, RENAMED, RESHAPED = range(0, 50), range(50, 55), range(55, 60)


def write_pair(directory: str, megabytes: int) -> None:
    import torch

    columns = megabytes * (1 << 20) // 4 // TENSORS // ROWS
    torch.manual_seed(0)
    a = {f"layers.{i}.weight": torch.randn(ROWS, columns) for i in range(TENSORS)}
    torch.save(a, Path(directory) / "a.pt")
    b = {}
    for i, (key, tensor) in enumerate(a.items()):
        if i in CHANGED:
            b[key] = tensor + 1e-3 * torch.randn_like(tensor)
        elif i in RENAMED:
            b[f"blocks.{i}.weight"] = tensor
        elif i in RESHAPED:
            b[key] = tensor.reshape(columns, ROWS)
        else:
            b[key] = tensor
    torch.save(b, Path(directory) / "b.pt")


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def child(kind: str, directory: str) -> None:
    import torch

    path_a, path_b = str(Path(directory) / "a.pt"), str(Path(directory) / "b.pt")
    start = time.perf_counter()
    if kind == "ours":
        from tensorviz.core.diff.comparison import compare_sides
        from tensorviz.core.diff.report import comparison_json, report_lines
        from tensorviz.core.diff.sides import side_of_file

        start = time.perf_counter()
        comparison = compare_sides(side_of_file(path_a), side_of_file(path_b))
        report_lines(comparison)
        comparison_json(comparison)
        counts = (comparison.count("changed"), comparison.renames, comparison.count("unchanged"))
        # the renamed tensors keep their bytes: unchanged
        assert counts == (len(CHANGED) + len(RESHAPED), len(RENAMED), 45), counts
    elif kind == "anchor":
        a = torch.load(path_a, mmap=True, weights_only=True)
        b = torch.load(path_b, mmap=True, weights_only=True)
        for key, x in a.items():
            if key in b:
                y = b[key].reshape(x.shape)
                if not torch.equal(x, y):
                    (x - y).abs().max()
    elif kind == "torch_load":  # the loop most people write: both files loaded, no mmap
        a = torch.load(path_a, weights_only=True)
        b = torch.load(path_b, weights_only=True)
        for key, x in a.items():
            if key in b:
                y = b[key].reshape(x.shape)
                if not torch.equal(x, y):
                    (x - y).abs().max()
    elif kind == "reads":  # the floor of plain reads: every byte once, nothing computed
        buffer = bytearray(1 << 20)
        for path in (path_a, path_b):
            with open(path, "rb", buffering=0) as f:
                while f.readinto(buffer):
                    pass
    elif kind == "whole":  # the control: both files in memory, as a careless tool would
        a = torch.load(path_a, weights_only=True)
        b = torch.load(path_b, weights_only=True)
        assert len(a) == len(b) == TENSORS
    elapsed = time.perf_counter() - start
    print(f"{elapsed:.6f} {peak_rss_mb():.1f}")


def run_child(kind: str, directory: str) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, directory], check=True, capture_output=True,
        text=True,
    ).stdout  # fmt: skip
    elapsed, rss = out.split()
    return float(elapsed), float(rss)


def bench_line(name: str, ours: float, anchor: float, goal: float, unit: str = "") -> str:
    ratio = ours / anchor
    verdict = "PASS" if ratio <= goal else "MISS"
    return (
        f"BENCH {name} ours={ours:.3f}{unit} anchor={anchor:.3f}{unit} ratio={ratio:.2f} "
        f"goal=<={goal} {verdict}"
    )


def main() -> int:
    megabytes = int(os.environ.get("BENCH_DIFF_MB", "1000"))
    largest_mb = megabytes / TENSORS  # every tensor has the same size
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, __file__, "--write", tmp, str(megabytes)], check=True)
        results: dict[str, list[tuple[float, float]]] = {}
        for _ in range(RUNS):
            for kind in ("ours", "anchor", "torch_load", "reads", "torch_only"):
                results.setdefault(kind, []).append(run_child(kind, tmp))
        whole_rss = run_child("whole", tmp)[1]
    time_ours, rss_ours = (statistics.median(x) for x in zip(*results["ours"], strict=True))
    time_anchor = statistics.median(t for t, _ in results["anchor"])
    time_reads = statistics.median(t for t, _ in results["reads"])
    time_load = statistics.median(t for t, _ in results["torch_load"])
    rss_torch = statistics.median(r for _, r in results["torch_only"])
    bound = rss_torch + 3 * largest_mb
    print(f"# two {megabytes} MB checkpoints, {TENSORS} tensors of {largest_mb:.1f} MB; "
          f"import torch alone peaks at {rss_torch:.0f} MB; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    print(bench_line("diff_full_report", time_ours, time_anchor, GOAL_MMAP_LOOP))
    print(bench_line("diff_full_report_vs_reads_floor", time_ours, time_reads, GOAL_READS_FLOOR))
    print(bench_line("diff_full_report_vs_torch_load", time_ours, time_load, GOAL_TORCH_LOAD))
    print("# the floor: both files read once with plain reads, nothing compared")
    print(bench_line("diff_plain_reads_floor", time_reads, time_anchor, GOAL_MMAP_LOOP))
    print(bench_line("diff_peak_rss_mb_vs_torch_plus_3_largest", rss_ours, bound, GOAL_RSS))
    fails = whole_rss > bound
    verdict = f"> bound {bound:.0f} MB — ok" if fails else f"<= bound {bound:.0f} MB — BROKEN"
    print(f"CHECK the RSS measure sees both files loaded whole: {whole_rss:.0f} MB {verdict}")
    return 0 if fails else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        raise SystemExit(0)
    if len(sys.argv) == 4 and sys.argv[1] == "--write":
        write_pair(sys.argv[2], int(sys.argv[3]))
        raise SystemExit(0)
    raise SystemExit(main())
