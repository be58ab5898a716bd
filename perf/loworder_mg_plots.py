#!/usr/bin/env python3
"""Time to solution of the low-order solvers from tensormg-loworder run records (--record).

  perf/loworder_mg_plots.py RECORD.json [RECORD.json ...] [--out PREFIX]

prints a Markdown table (problem, DoFs, solver, iterations, set-up seconds and their largest parts,
solve seconds, total, converged) and, with --out, writes PREFIX.md and PREFIX.png: per problem, the
solve time of each solver against DoFs (log scale, iterations written at the points) and the set-up
and solve time of each solver at the largest size as stacked bars. matplotlib is needed for the
plot only.
"""
import argparse
import json
import sys


def solver(r):
    o = r["options"]
    name = {"none": "fused CG", "jacobi": "CG + Jacobi", "multigrid": "CG + multigrid"}[o["preconditioner"]]
    return name + (" (assembled)" if o["operator"] == "assembled" else "")


def load(paths):
    rows = []
    for p in paths:
        try:
            with open(p) as f:
                r = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f"loworder_mg_plots.py: cannot read {p}: {e}")
        if r.get("kind") != "tensormg-loworder":
            sys.exit(f"loworder_mg_plots.py: {p} is not a tensormg-loworder record")
        res = r["result"]
        rows.append({"problem": r["options"]["problem"], "dofs": res["dofs"], "solver": solver(r),
                     "iterations": res["iterations"], "setup": res["setup_seconds"],
                     "breakdown": res["setup_breakdown_seconds"], "solve": res["solve_seconds"],
                     "converged": res["converged"]})
    rows.sort(key=lambda x: (x["problem"], x["dofs"], x["solver"]))
    return rows


def table(rows):
    out = ["| problem | DoFs | solver | iterations | set-up s (largest parts) | solve s | total s | converged |",
           "|---|---:|---|---:|---|---:|---:|---|"]
    for r in rows:
        parts = sorted(r["breakdown"].items(), key=lambda kv: -kv[1])[:2]
        setup = f"{r['setup']:.2f} (" + ", ".join(f"{k} {v:.2f}" for k, v in parts) + ")"
        out.append(f"| {r['problem']} | {r['dofs']:.3g} | {r['solver']} | {r['iterations']} | {setup} | "
                   f"{r['solve']:.3f} | {r['setup'] + r['solve']:.2f} | {'yes' if r['converged'] else 'no'} |")
    return "\n".join(out) + "\n"


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    problems = sorted({r["problem"] for r in rows})
    solvers = sorted({r["solver"] for r in rows})
    fig, axes = plt.subplots(2, len(problems), figsize=(6 * len(problems), 9), squeeze=False)
    for j, p in enumerate(problems):
        ax = axes[0][j]
        for s in solvers:
            pts = [r for r in rows if r["problem"] == p and r["solver"] == s]
            if not pts:
                continue
            ax.loglog([r["dofs"] for r in pts], [r["solve"] for r in pts], "o-", label=s)
            for r in pts:
                ax.annotate(f"{r['iterations']}{'' if r['converged'] else ' (not converged)'}",
                            (r["dofs"], r["solve"]), textcoords="offset points", xytext=(4, 4), fontsize=8)
        ax.set_title(f"{p}: solve time (iterations at the points)")
        ax.set_xlabel("DoFs")
        ax.set_ylabel("seconds")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        ax = axes[1][j]
        largest = max(r["dofs"] for r in rows if r["problem"] == p)
        pts = [r for r in rows if r["problem"] == p and r["dofs"] == largest]
        names = [r["solver"] for r in pts]
        ax.bar(names, [r["setup"] for r in pts], label="set-up (host-built layouts, operators, multigrid)")
        ax.bar(names, [r["solve"] for r in pts], bottom=[r["setup"] for r in pts], label="solve")
        ax.set_title(f"{p}, {largest:.3g} DoFs: time to solution")
        ax.set_ylabel("seconds")
        ax.tick_params(axis="x", labelrotation=15, labelsize=8)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+")
    parser.add_argument("--out")
    args = parser.parse_args()
    rows = load(args.records)
    text = table(rows)
    print(text, end="")
    if args.out:
        with open(args.out + ".md", "w") as f:
            f.write(text)
        try:
            plot(rows, args.out + ".png")
        except ImportError:
            print("loworder_mg_plots.py: no matplotlib: table only", file=sys.stderr)


if __name__ == "__main__":
    main()
