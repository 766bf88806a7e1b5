"""How many bytes torch's CPU allocator hands out while a function runs, as torch's own profiler
records them (tracemalloc does not see torch's allocations). Each allocation is counted once, at
the operator that made it (its self memory), frees are not subtracted."""

from torch.profiler import ProfilerActivity, profile


def cpu_bytes_allocated(function) -> tuple[int, object]:
    """(bytes allocated, what `function()` returned)."""
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as profiler:
        returned = function()
    allocated = sum(max(event.self_cpu_memory_usage, 0) for event in profiler.events())
    return allocated, returned
