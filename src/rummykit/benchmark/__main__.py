"""``python -m rummykit.benchmark``: see :mod:`rummykit.benchmark`."""

from __future__ import annotations

import argparse
import sys

from rummykit.benchmark import run
from rummykit.benchmark.timing import Config


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rummykit.benchmark",
        description="Throughput of the rummykit engine, and of OpenSpiel's and RLCard's "
        "gin rummy when the `anchors` extra is installed.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object to stdout")
    parser.add_argument(
        "--quick", action="store_true", help="a short run (0.5 s per measure, smaller workloads)"
    )
    parser.add_argument(
        "--seconds", type=float, metavar="S", help="time budget per measure (default 5, quick 0.5)"
    )
    parser.add_argument(
        "--seed", type=int, default=20260101, help="base seed (default %(default)s)"
    )
    parser.add_argument(
        "--no-anchors",
        action="store_true",
        help="measure rummykit only, even when the anchors are installed",
    )
    parser.add_argument(
        "--only", metavar="TEXT",
        help="run only the measures whose title holds TEXT (e.g. 'contract')",
    )
    args = parser.parse_args(argv)
    try:
        cfg = Config.make(quick=args.quick, seconds=args.seconds, seed=args.seed,
                          only=args.only)
    except ValueError as exc:
        parser.error(str(exc))
    report = run(cfg, anchors=not args.no_anchors)
    if args.json:
        report.write_json(sys.stdout)
    else:
        report.write_text(sys.stdout)
    # Measures that raised (our engine missing included) fail the run; a missing
    # `anchors` extra does not.
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main())
