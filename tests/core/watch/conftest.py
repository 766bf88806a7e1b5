"""Every recorder test ends with no run active (hooks removed, writer thread joined)."""

import pytest


@pytest.fixture(autouse=True)
def _no_run_left_active():
    yield
    from tensorviz.core.watch.recorder import current_run

    run = current_run()
    if run is not None:
        run.close()
