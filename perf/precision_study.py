#!/usr/bin/env python3
"""Paper 001 §7 from tensormg-poisson records: FGMRES (double) preconditioned by one multigrid
V-cycle in FP64 CUDA cores, FP64 tensor cores, FP32, FP16 tensor cores and FP16 tensor cores with
error correction; per case (degree, DoFs) the FGMRES iterations, solve and setup time, L2 error
and the solve's speedup over FP64 CUDA cores.

    python3 perf/precision_study.py RECORD.json... [--markdown table.md] [--png plot.png]

A variant is named by the record's multigrid precision and contraction: precision double or
mixed (the V-cycle in float), contraction lines (CUDA cores), blocks (FP64 tensor cores at
k = 3, where the CUDA build has them), f16, f16ec. Several records of one variant and case (repeated
runs) give the median solve time. Exits 1 when a record did not converge.
"""
import argparse
import json
import statistics
import sys

VARIANTS = [  # (precision, contraction) -> label, in table order
    (("double", "lines"), "FP64 CC"),
    (("double", "blocks"), "FP64 TC"),
    (("mixed", "lines"), "FP32 CC"),
    (("mixed", "f16"), "FP16 TC"),
    (("mixed", "f16ec"), "FP16 EC TC"),
]


def label_of(options):
    key = (options["precision"], options.get("contraction", "auto"))
    for k, name in VARIANTS:
        if k == key:
            return name
    return "%s/%s" % key


def load(paths):
    cases = {}
    failed = []
    for path in paths:
        with open(path) as f:
            rec = json.load(f)
        if rec.get("kind") != "tensormg-poisson":
            sys.exit("%s: not a tensormg-poisson record" % path)
        o, r = rec["options"], rec["result"]
        if not r.get("converged", False) or r.get("true_residual_exceeds_tolerance", False):
            failed.append(path)
        case = (o["degree"], r["dofs"])
        cases.setdefault(case, {}).setdefault(label_of(o), []).append(r)
    return cases, failed


def rows(cases):
    out = []
    order = [name for _, name in VARIANTS]
    for (k, dofs) in sorted(cases):
        variants = cases[(k, dofs)]
        base = variants.get("FP64 CC")
        base_solve = statistics.median(x["solve_seconds"] for x in base) if base else None
        for name in sorted(variants, key=lambda n: order.index(n) if n in order else len(order)):
            rs = variants[name]
            solve = statistics.median(x["solve_seconds"] for x in rs)
            setup = statistics.median(x["setup_seconds"] for x in rs)
            out.append({
                "degree": k, "dofs": dofs, "variant": name, "runs": len(rs),
                "iterations": rs[0]["iterations"], "solve_seconds": solve, "setup_seconds": setup,
                "l2_error": rs[0].get("l2_error", float("nan")),
                "relative_true_residual": rs[0]["relative_true_residual"],
                "speedup": base_solve / solve if base_solve else float("nan"),
                "smoother": rs[0].get("multigrid", {}).get("smoother", ""),
            })
    return out


def markdown(table):
    lines = ["| Q_k | DoFs | V-cycle | FGMRES its | solve s | setup s | L2 error | rel. true residual | speedup vs FP64 CC |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    for r in table:
        lines.append("| Q%d | %.1fM | %s | %d | %.3f | %.2f | %.3e | %.1e | %.2f× |" % (
            r["degree"], r["dofs"] / 1e6, r["variant"], r["iterations"], r["solve_seconds"], r["setup_seconds"],
            r["l2_error"], r["relative_true_residual"], r["speedup"]))
    return "\n".join(lines) + "\n"


def plot(table, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cases = sorted({(r["degree"], r["dofs"]) for r in table})
    names = [name for _, name in VARIANTS if any(r["variant"] == name for r in table)]
    fig, ax = plt.subplots(figsize=(8, 4.2))
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        xs, ys = [], []
        for c, case in enumerate(cases):
            for r in table:
                if (r["degree"], r["dofs"]) == case and r["variant"] == name:
                    xs.append(c + (i - (len(names) - 1) / 2) * width)
                    ys.append(r["solve_seconds"])
        bars = ax.bar(xs, ys, width, label=name)
        for x, y, r in zip(xs, ys, [r for case in cases for r in table
                                    if (r["degree"], r["dofs"]) == case and r["variant"] == name]):
            ax.text(x, y, str(r["iterations"]), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(["Q%d, %.0fM DoFs" % (k, d / 1e6) for k, d in cases])
    ax.set_ylabel("FGMRES solve time [s] (numbers: iterations)")
    ax.set_yscale("log")
    ax.set_title("FGMRES + one V-cycle per iteration, DG SIPG 3D, rtol 1e-8 (paper 001 §7)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("records", nargs="+")
    p.add_argument("--markdown")
    p.add_argument("--png")
    p.add_argument("--json")
    a = p.parse_args()
    cases, failed = load(a.records)
    table = rows(cases)
    text = markdown(table)
    sys.stdout.write(text)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(table, f, indent=1)
    if a.png:
        plot(table, a.png)
    if failed:
        sys.stderr.write("not converged: %s\n" % " ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
