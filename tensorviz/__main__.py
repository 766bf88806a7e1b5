"""`python -m tensorviz` behaves exactly like the `tensorviz` command."""

from tensorviz.app import main

raise SystemExit(main())
