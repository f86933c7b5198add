"""``scripts/doctor``: which system pieces are here and which are missing.

Exits 1 when a piece of the chosen groups is missing. ``--debian-packages`` prints
instead the Debian packages that would bring the missing ones, one a line, for
``scripts/install-system``.
"""

import argparse
import sys

from bedside.system_pieces import Group, Use, describe_missing, missing, select


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="doctor", description=__doc__)
    parser.add_argument("groups", nargs="*", type=Group, help=f"only these: {', '.join(Group)}")
    parser.add_argument("--for", dest="use", type=Use, help="only what this needs: up or tests")
    parser.add_argument("--quiet", action="store_true", help="print only what is missing")
    parser.add_argument("--debian-packages", action="store_true", help="print what would bring the missing")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    pieces = select(args.groups, args.use)
    found = missing(pieces)
    if args.debian_packages:
        for package in sorted({piece.debian_package for piece, _ in found if piece.debian_package}):
            print(package)
        return 0
    problems = {piece.name: problem for piece, problem in found}
    for piece in pieces:
        if args.quiet and piece.name not in problems:
            continue
        state = "MISSING" if piece.name in problems else "ok"
        print(f"{state:8} {piece.group:11} {piece.name:24} {problems.get(piece.name, piece.why)}")
    if found:
        print(describe_missing(found), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
