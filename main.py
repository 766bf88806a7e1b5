"""Thin launcher: `python main.py [FILE ...]` starts tensorviz from a source checkout."""

from tensorviz.app import main

if __name__ == "__main__":
    raise SystemExit(main())
