"""``python -m lemmacheck.mutate [-k …]``: the mutate command on its own (before it is wired into the CLI)."""

from __future__ import annotations

import argparse
import sys

from .command import add_parser, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lemmacheck")
    sub = parser.add_subparsers(dest="command")
    add_parser(sub)
    args = parser.parse_args(["mutate", *(sys.argv[1:] if argv is None else argv)])
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
