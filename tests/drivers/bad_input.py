#!/usr/bin/env python3
"""Runs one row of a bad-input table: the program must fail cleanly.

Table rows (tests/drivers/bad_input_<program>.txt), fields separated by '|':
    name | ranks | exit code | message fragment | arguments
ranks: comma-separated MPI sizes (CMake makes one ctest entry per size). Arguments are split like a
shell would (shlex); '{dir}' is replaced by a fresh empty folder of this run. The run passes when
  - the exit code is the expected one (not a crash, not an MPI_Abort),
  - the fragment appears exactly once in stdout + stderr (printed by one rank, not by every rank),
  - no abort banner or backtrace is printed,
  - the folder holds no new file afterwards (no partial output, no stray temporary).
usage: bad_input.py <table> <name> -- <launcher and program...>"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


def read_row(table, name):
    with open(table) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|", 4)]
            if fields[0] == name:
                return fields
    sys.exit(f"row {name!r} not in {table}")


def main():
    table, name = sys.argv[1], sys.argv[2]
    command = sys.argv[sys.argv.index("--") + 1:]
    _, _, code, fragment, arguments = read_row(table, name)
    folder = tempfile.mkdtemp(prefix="tensormg-bad-input-")
    try:
        args = [a.replace("{dir}", folder) for a in shlex.split(arguments)]
        p = subprocess.run(command + args, capture_output=True, text=True, timeout=600)
        out = p.stdout + p.stderr
        problems = []
        if p.returncode != int(code):
            problems.append(f"exit code {p.returncode}, expected {code}")
        if out.count(fragment) != 1:
            problems.append(f"message fragment {fragment!r} appears {out.count(fragment)} times, expected once")
        for banner in ("MPI_ABORT", "MPI_Abort", "terminate called", "Backtrace", "Segmentation fault"):
            if banner in out:
                problems.append(f"output shows {banner!r}")
        left = sorted(os.listdir(folder))
        if left:
            problems.append(f"files left behind: {left}")
        print("command:", " ".join(shlex.quote(c) for c in command + args))
        print(out)
        for problem in problems:
            print("FAILED:", problem)
        sys.exit(1 if problems else 0)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
