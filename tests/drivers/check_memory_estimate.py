#!/usr/bin/env python3
"""The memory estimate that tensormg-poisson checks before allocating (issue 19) must cover what
the run allocates and not overstate it by much: for each configuration, run with --memory-report
and require  measured peak <= estimate  and  estimate - fixed margin <= 2 x measured peak.
usage: check_memory_estimate.py [--ranked] -- <launcher and tensormg-poisson...>
--ranked: the multi-rank multigrid cases (launch with several ranks; the peak is per rank)."""
import re
import subprocess
import sys

program = sys.argv[sys.argv.index("--") + 1:]
# ~1-2 M DoFs, so that vectors dominate the fixed margin; two iterations are enough for the peak,
# except under GMRES, whose basis grows with the iterations up to the restart length: those cases
# run that many.
CASES = [
    "--dim 2 -k 3 --cells 2 -r 7 --solver cg --preconditioner jacobi",
    "--dim 2 -k 3 --cells 2 -r 7 --solver gmres --restart 4 --max-iterations 4",
    "--dim 2 -k 3 --cells 2 -r 7 --solver fmg",
    "--dim 2 -k 3 --cells 2 -r 7 --solver fmg --precision mixed",
    "--dim 2 -k 3 --cells 2 -r 7 --solver fgmres --preconditioner mg --smoother-kernel global --restart 5 --max-iterations 5",
    "--dim 3 -k 2 --cells 2 -r 4 --solver cg --preconditioner mg --smoother chebyshev --precision float",
    "--dim 3 -k 2 --cells 2 -r 4 --solver vcycle --smoother jacobi",
    "--discretization dg --dim 2 -k 3 --cells 2 -r 6 --solver fmg",
    "--discretization dg --dim 2 -k 3 --cells 2 -r 6 --solver fmg --precision mixed --local-solver full",
    "--discretization dg --dim 3 -k 2 --cells 2 -r 3 --solver gmres --preconditioner mg --restart 2 --max-iterations 2",
]
if "--ranked" in sys.argv[:sys.argv.index("--")]:
    CASES = [
        "--dim 2 -k 3 --cells 2 -r 7 --solver fmg",
        "--dim 3 -k 2 --cells 3 -r 4 --solver cg --preconditioner mg --smoother-kernel separate",
        "--discretization dg --dim 2 -k 3 --cells 3,2 -r 6 --solver fmg",
    ]
UNITS = {"MiB": 2.0**20, "GiB": 2.0**30}
failed = False
for case in CASES:
    limit = [] if "--max-iterations" in case else ["--max-iterations", "2"]
    p = subprocess.run(program + case.split() + limit + ["--memory-report"], capture_output=True, text=True)
    m = re.search(r"estimated ([\d.]+) (\wiB) \(([\d.]+) (\wiB) of it a fixed margin\), measured peak ([\d.]+) (\wiB)",
                  p.stdout)
    if not m:
        print(f"{case}: no memory line (exit {p.returncode})\n{p.stdout}{p.stderr}")
        failed = True
        continue
    estimate = float(m.group(1)) * UNITS[m.group(2)]
    margin = float(m.group(3)) * UNITS[m.group(4)]
    measured = float(m.group(5)) * UNITS[m.group(6)]
    ok = measured <= estimate and estimate - margin <= 2 * measured
    failed |= not ok
    print(f"{'ok  ' if ok else 'FAIL'} {case}: estimate {estimate / 2**20:.1f} MiB "
          f"({(estimate - margin) / max(measured, 1):.2f}x the measured peak without the margin), "
          f"measured {measured / 2**20:.1f} MiB")
sys.exit(1 if failed else 0)
