#!/usr/bin/env python3
"""Weak and strong scaling of the multigrid solvers (issue 14): runs tensormg-poisson on 1..N ranks
with --record and --mg-times, and writes
  scaling.json  every run's record plus the derived efficiencies,
  scaling.md    a table per series (time, iterations, V-cycle components, parallel efficiency),
  scaling.png   time and efficiency against ranks (when matplotlib is there; the JSON is the data).

Weak series: DoFs per rank held at or just above --weak-dofs (the brick grows with the rank count: coarse cells
are the rank count factored over the directions, times a multiplier, and the brick's extent is that
factorisation, so the cells stay cubic and the iteration counts comparable). Strong series: one mesh of
about --strong-dofs on every rank count. Efficiency: weak t_b / t_p, strong p_b t_b / (p t_p), of the
solve time (setup reported beside it), b the smallest rank count whose run succeeded (a strong
series too large for one GPU starts at two). --repeat N times N solves per run (the program's
median); --run-timeout ends a run that hangs. scaling.json and scaling.md are rewritten after every
series, so a study cut short keeps what it measured.

usage: scaling_study.py --program build/drivers/tensormg-poisson --launcher "mpiexec -n {ranks}"
         --ranks 1,2,4 --degrees 1,3,7 --solvers fmg,gmres --weak-dofs 2e8 --strong-dofs 5e8
         --dim 3 --out DIR [--precision double] [--extra "--smoother-kernel fused"] [--times both]
         [--repeat 3] [--run-timeout 120]
"""
import argparse
import json
import math
import os
import shlex
import subprocess
import sys


def factor(ranks, dim):
    """ranks as a product of dim factors, as even as possible (largest first)."""
    f = [1] * dim
    n = ranks
    p = 2
    primes = []
    while n > 1:
        while n % p == 0:
            primes.append(p)
            n //= p
        p += 1
    for q in sorted(primes, reverse=True):
        i = f.index(min(f))
        f[i] *= q
    return sorted(f, reverse=True)


def dofs_of(dim, k, cells, r):
    n = 1
    for c in cells:
        n *= c * (1 << r) * k + 1
    return n


def choose_mesh(dim, k, base_cells, target, at_least=False):
    """(cells, refinements) with cells = m * base_cells closest to target DoFs (log scale); with
    at_least, the closest of those with at least target DoFs (the weak series' DoFs per rank)."""
    best = None
    for m in range(1, 9):
        for r in range(1, 14):
            cells = [m * c for c in base_cells]
            if min(cells) * (1 << r) < 2:
                continue
            d = dofs_of(dim, k, cells, r)
            if at_least and d < target:
                continue
            score = abs(math.log(d / target))
            if best is None or score < best[0]:
                best = (score, cells, r)
    return best[1], best[2]


SOLVER_ARGS = {
    "fmg": ["--solver", "fmg"],
    "gmres": ["--solver", "gmres", "--preconditioner", "mg"],
    "cg": ["--solver", "cg", "--preconditioner", "mg"],
    "fgmres": ["--solver", "fgmres", "--preconditioner", "mg"],
}


def run(args, ranks, dim, k, cells, r, solver, tag, upper):
    """One configuration: per --times, an untimed run (its solve time is the one the efficiencies
    use: --mg-times fences every component and every halo exchange, which serialises the overlap of
    exchange and work) and/or a run with --mg-times for the V-cycle's components."""
    if args.times == "timed":
        return run_once(args, ranks, dim, k, cells, r, solver, tag, upper, True)
    e = run_once(args, ranks, dim, k, cells, r, solver, tag, upper, False)
    if args.times == "both" and e.get("exit_code") == 0:
        t = run_once(args, ranks, dim, k, cells, r, solver, tag + "-timed", upper, True)
        if t.get("exit_code") == 0:
            e["components"] = t["components"]
            e["timed_solve_seconds"] = t["solve_seconds"]
    return e


def run_once(args, ranks, dim, k, cells, r, solver, tag, upper, timed):
    record = os.path.join(args.out, "records", f"{tag}.json")
    cmd = shlex.split(args.launcher.format(ranks=ranks)) + [args.program, "--dim", str(dim), "-k", str(k),
                                                              "--cells", ",".join(map(str, cells)), "-r", str(r),
                                                              "--upper", ",".join(map(str, upper)),
                                                              "--precision", args.precision, "--rtol", str(args.rtol),
                                                              "--record", record, "--overwrite"]
    if timed:
        cmd.append("--mg-times")
    if args.repeat > 1 and not timed:  # the components come from one solve
        cmd += ["--repeat", str(args.repeat)]
    cmd += SOLVER_ARGS[solver] + shlex.split(args.extra)
    print("+", " ".join(cmd), flush=True)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.run_timeout or None)
    except subprocess.TimeoutExpired as e:
        print(f"timed out after {args.run_timeout} s", file=sys.stderr)
        return {"command": cmd, "ranks": ranks, "exit_code": "timeout", "error": f"no result within {args.run_timeout} s"}
    if p.returncode != 0:
        print(p.stdout[-3000:], p.stderr[-3000:], file=sys.stderr)
        return {"command": cmd, "ranks": ranks, "exit_code": p.returncode, "error": (p.stderr or p.stdout)[-2000:]}
    with open(record) as f:
        rec = json.load(f)
    res = rec["result"]
    return {"command": cmd, "exit_code": 0, "ranks": ranks, "dim": dim, "k": k, "cells": cells, "refinements": r,
            "solver": solver, "dofs": res["dofs"], "iterations": res["iterations"],
            "setup_seconds": res["setup_seconds"], "solve_seconds": res["solve_seconds"],
            "solve_seconds_each": res.get("solve_seconds_each", [res["solve_seconds"]]),
            "iterations_each": res.get("iterations_each", [res["iterations"]]),
            "l2_error": res.get("l2_error"), "components": res.get("multigrid", {}).get("times", {}),
            "device": rec.get("provenance", {}).get("device")}


def table(series):
    comps = sorted({c for e in series["runs"] if e.get("exit_code") == 0 for c in e["components"]})
    head = "| ranks | DoFs | iterations | setup s | solve s | efficiency | solve s with --mg-times |" + "".join(f" {c} |" for c in comps)
    lines = [head, "|" + "---|" * (7 + len(comps))]
    for e in series["runs"]:
        if e.get("exit_code") != 0:
            lines.append(f"| {e.get('ranks', '?')} | failed (exit {e['exit_code']}) |")
            continue
        cs = " | ".join(f"{e['components'].get(c, 0):.4f}" for c in comps)
        lines.append(f"| {e['ranks']} | {e['dofs']:.3e} | {e['iterations']} | {e['setup_seconds']:.3f} | "
                     f"{e['solve_seconds']:.4f} | {e.get('efficiency', float('nan')):.3f} | "
                     f"{e.get('timed_solve_seconds', float('nan')):.4f} | {cs} |")
    return "\n".join(lines)


def plot(study, out, title, ranks):
    """scaling.png in out: time and efficiency against ranks, and the V-cycle's components."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no scaling.png (the data is in scaling.json; --replot it elsewhere)")
        return
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.5))
    for s in study["series"]:
        ok = [e for e in s["runs"] if e.get("exit_code") == 0]
        label = f"{s['kind']} Q{s['k']} {s['solver']}"
        style = "-o" if s["kind"] == "weak" else "--s"
        ax[0].plot([e["ranks"] for e in ok], [e["solve_seconds"] for e in ok], style, label=label)
        ax[1].plot([e["ranks"] for e in ok], [e.get("efficiency", float("nan")) for e in ok], style, label=label)
    ax[0].set(xlabel="ranks", ylabel="solve time [s]", title="time to solution" + title, xscale="log", yscale="log")
    ax[1].set(xlabel="ranks", ylabel="parallel efficiency", title="efficiency" + title, xscale="log", ylim=(0, 1.1))
    for a in ax[:2]:
        a.set_xticks(ranks)
        a.set_xticklabels([str(r) for r in ranks])
        a.minorticks_off()
    # V-cycle components of the first weak series (the largest runs), stacked per rank count.
    s = next((s for s in study["series"] if s["kind"] == "weak"), study["series"][0] if study["series"] else None)
    if s:
        ok = [e for e in s["runs"] if e.get("exit_code") == 0]
        comps = sorted({c for e in ok for c in e["components"] if not c.startswith("smoothing: ")})
        halo = "smoothing: halo exchange"
        if any(halo in e["components"] for e in ok):  # smoothing drawn as its work and its exchange
            comps.insert(comps.index("smoothing") + 1 if "smoothing" in comps else len(comps), halo)
        bottom = [0.0] * len(ok)
        for c in comps:
            v = [e["components"].get(c, 0) - (e["components"].get(halo, 0) if c == "smoothing" else 0) for e in ok]
            ax[2].bar([str(e["ranks"]) for e in ok], v, bottom=bottom, label="smoothing (patches)" if c == "smoothing" and halo in comps else c,
                      hatch="//" if c == halo else None)
            bottom = [a + b for a, b in zip(bottom, v)]
        ax[2].set(xlabel="ranks", ylabel="seconds (finest level)", title=f"components, {s['kind']} Q{s['k']} {s['solver']}")
        ax[2].legend(fontsize=7, loc="upper left")
    ax[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "scaling.png"), dpi=120)
    print("wrote", os.path.join(out, "scaling.png"))


def write_study(study, out):
    """scaling.json and scaling.md as they stand (atomically: a reader never sees half a file)."""
    for name, text in (("scaling.json", json.dumps(study, indent=1)),
                       ("scaling.md", "".join(f"\n### {s['kind']} scaling, Q{s['k']}, {s['solver']}\n\n{table(s)}\n"
                                              for s in study["series"]))):
        tmp = os.path.join(out, f".{name}.tmp")
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, os.path.join(out, name))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--program", required=True)
    ap.add_argument("--launcher", default="mpiexec -n {ranks}")
    ap.add_argument("--ranks", default="1,2,4")
    ap.add_argument("--degrees", default="1,3,7")
    ap.add_argument("--solvers", default="fmg,gmres")
    ap.add_argument("--dim", type=int, default=3)
    ap.add_argument("--weak-dofs", type=float, default=2e8, help="DoFs per rank of the weak series (0: none)")
    ap.add_argument("--strong-dofs", type=float, default=5e8, help="DoFs of the strong series (0: none)")
    ap.add_argument("--precision", default="double")
    ap.add_argument("--rtol", type=float, default=1e-9)
    ap.add_argument("--extra", default="", help="more tensormg-poisson arguments")
    ap.add_argument("--times", choices=["both", "untimed", "timed"], default="both",
                    help="both: solve time from a run without --mg-times, components from a second run with it")
    ap.add_argument("--repeat", type=int, default=1, help="solves per run; the program reports their median")
    ap.add_argument("--run-timeout", type=float, default=0, help="seconds after which a run counts as failed (0: none)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="", help="appended to the plot titles (e.g. ', 4 ranks on one GPU')")
    ap.add_argument("--replot", metavar="JSON", help="only draw scaling.png (into --out) from a scaling.json")
    if "--replot" in sys.argv:  # the other arguments come from the record
        rp = argparse.ArgumentParser()
        rp.add_argument("--replot", required=True)
        rp.add_argument("--out", required=True)
        rp.add_argument("--title", default="")
        a = rp.parse_args()
        with open(a.replot) as f:
            study = json.load(f)
        ranks = sorted({e["ranks"] for s in study["series"] for e in s["runs"] if e.get("exit_code") == 0})
        plot(study, a.out, a.title or study["arguments"].get("title", ""), ranks)
        return 0
    args = ap.parse_args()
    ranks = [int(x) for x in args.ranks.split(",")]
    degrees = [int(x) for x in args.degrees.split(",")]
    solvers = args.solvers.split(",")
    for s in solvers:
        if s not in SOLVER_ARGS:
            ap.error(f"solver '{s}' is not one of {', '.join(SOLVER_ARGS)}")
    if ranks[0] != 1:
        ap.error("--ranks must start at 1 (the efficiencies are relative to one rank)")
    if not 1 <= args.repeat <= 100:
        ap.error("--repeat must be in 1..100")
    os.makedirs(os.path.join(args.out, "records"), exist_ok=True)
    study = {"kind": "tensormg-scaling", "arguments": vars(args), "series": []}
    for kind, target in (("weak", args.weak_dofs), ("strong", args.strong_dofs)):
        if target <= 0:
            continue
        for k in degrees:
            for solver in solvers:
                series = {"kind": kind, "k": k, "solver": solver, "runs": []}
                # The brick grows with its coarse cells (upper = cells / multiplier): cubic cells, so
                # the weak series keeps the cells' shape and the iteration counts.
                if kind == "strong":
                    cells, r = choose_mesh(args.dim, k, [1] * args.dim, target)
                    upper = [1] * args.dim
                for p in ranks:
                    if kind == "weak":
                        base = factor(p, args.dim)
                        cells, r = choose_mesh(args.dim, k, base, target * p, at_least=True)
                        upper = base
                    e = run(args, p, args.dim, k, cells, r, solver, f"{kind}-k{k}-{solver}-np{p}", upper)
                    series["runs"].append(e)
                ref = next((e for e in series["runs"] if e.get("exit_code") == 0), None)
                for e in series["runs"]:
                    if e.get("exit_code") == 0 and ref:
                        e["efficiency"] = (ref["solve_seconds"] / e["solve_seconds"] if kind == "weak" else
                                           ref["ranks"] * ref["solve_seconds"] / (e["ranks"] * e["solve_seconds"]))
                        e["efficiency_base_ranks"] = ref["ranks"]
                study["series"].append(series)
                write_study(study, args.out)
    write_study(study, args.out)
    print(open(os.path.join(args.out, "scaling.md")).read())
    plot(study, args.out, args.title, ranks)
    return 1 if any(e.get("exit_code") for s in study["series"] for e in s["runs"]) else 0


if __name__ == "__main__":
    sys.exit(main())
