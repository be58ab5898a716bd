#!/usr/bin/env python3
"""tensormg-poisson --repeat N: N solves from a zero start, each timed; the record's solve time is
their median. Every repetition must take the iterations of a single solve (a start that is not
reset to zero would converge at once) and end with the same L2 error.
usage: check_repeat.py WORKDIR -- <launcher and tensormg-poisson...>"""
import json
import os
import subprocess
import sys

work = sys.argv[1]
program = sys.argv[sys.argv.index("--") + 1:]
os.makedirs(work, exist_ok=True)
CASES = [
    "--dim 2 -k 3 --cells 2,1 --upper 2,1 -r 4 --solver fmg --problem sine --rtol 1e-9",
    "--dim 2 -k 2 -r 4 --solver gmres --preconditioner mg --problem sine",
    "--dim 2 -k 2 -r 4 --solver cg --preconditioner jacobi --problem sine",
]
failed = False
for i, case in enumerate(CASES):
    records = []
    for repeat in (1, 3):
        path = os.path.join(work, f"repeat-{i}-{repeat}.json")
        p = subprocess.run(program + case.split() + ["--repeat", str(repeat), "--record", path, "--overwrite"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print(f"FAIL {case} --repeat {repeat}: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
            failed = True
            break
        with open(path) as f:
            records.append(json.load(f)["result"])
    if len(records) != 2:
        continue
    one, three = records
    each = three["solve_seconds_each"]
    its = three["iterations_each"]
    med = sorted(each)[1] if len(each) == 3 else None
    problems = []
    if len(each) != 3 or len(its) != 3 or len(one["solve_seconds_each"]) != 1:
        problems.append(f"repetition counts {len(one['solve_seconds_each'])}, {len(each)}, {len(its)}")
    if med is None or abs(three["solve_seconds"] - med) > 1e-12 * max(med, 1):
        problems.append(f"solve_seconds {three['solve_seconds']} is not the median of {each}")
    if any(n != one["iterations"] for n in its):
        problems.append(f"iterations per repetition {its}, a single solve takes {one['iterations']}")
    if abs(three["l2_error"] - one["l2_error"]) > 1e-10 * one["l2_error"]:
        problems.append(f"L2 error {three['l2_error']} against {one['l2_error']}")
    print(("FAIL " if problems else "ok   ") + case + (": " + "; ".join(problems) if problems else
          f": {one['iterations']} iterations, solves {', '.join(f'{t:.4f}' for t in each)} s"))
    failed |= bool(problems)
sys.exit(1 if failed else 0)
