#!/usr/bin/env python3
"""Tables and plots from tensormg-bench-loworder records (paper 004, Figures 1-2).

  perf/loworder_plots.py RECORD.json [RECORD.json ...] [--out PREFIX]

prints a Markdown table (every measured case: seconds per application, GDoF/s, GFLOP/s, bytes of
the operator's data per DoF, % of the DRAM copy bandwidth, CG GDoF/s per iteration, agreement with
the SpMV) and, with --out, writes PREFIX.md (the same table), PREFIX-operator.png (throughput of one
application A(x) against DoFs, one panel per problem, one line per variant: the matrix-free ones,
the SpMV and the NoOp-SpMV bound) and PREFIX-cg.png (the same for one fused-CG iteration).
matplotlib is needed for the plots only: without it the table is still written.
"""
import argparse
import json
import sys

# Markers by family: matrix-free factorized circles, pointwise triangles, the SpMV squares, the
# NoOp-SpMV bound none (a black line); colours by variant, line styles by rank count.
def marker(variant):
    if variant in ("spmv", "cusparse"):
        return "s"
    if variant == "noop":
        return ""
    return "^" if "/pointwise/" in variant else "o"


LINESTYLES = ["-", "--", "-.", ":"]


def load(paths):
    cases, skipped, device, ceilings = [], [], "", {}
    for path in paths:
        with open(path) as f:
            record = json.load(f)
        # perf/cusparse_spmv.py's list: cuSPARSE SpMV of the exported matrices, a variant "cusparse".
        if isinstance(record, list) and all(isinstance(c, dict) and c.get("variant") == "cusparse" for c in record):
            for c in record:
                bytes_per_dof = (c["nnz"] * 12 + (c["rows"] + 1) * 4) / c["dofs"]
                cases.append({"problem": c["problem"], "dofs": c["dofs"], "cells": "-", "variant": "cusparse",
                              "seconds": c["seconds"], "GDoFps": c["gdofs"], "bytes_per_dof": bytes_per_dof})
            continue
        if not isinstance(record, dict) or record.get("kind") != "tensormg-bench-loworder":
            sys.exit(f"{path}: not a tensormg-bench-loworder record")
        if not record.get("complete", True):
            print(f"{path}: an incomplete record (the run stopped early): its measured cases are used", file=sys.stderr)
        device = record.get("provenance", {}).get("device", device)
        ceilings = record.get("ceilings", ceilings)
        for c in record["results"]:
            (skipped if "skipped" in c else cases).append(c)
    return cases, skipped, device, ceilings


def variant_order(v):
    """mf variants first (as the benchmark lists them), then spmv, cusparse, then noop."""
    return (v == "noop", v == "cusparse", v == "spmv", v)


def table(cases, skipped):
    lines = ["| problem | DoFs | cells | ranks | variant | s / apply | GDoF/s | GFLOP/s | B/DoF | % DRAM copy "
             "| CG GDoF/s per it. | max rel. diff. to SpMV |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    key = lambda c: (c["problem"], c["dofs"], variant_order(c["variant"]))
    for c in sorted(cases, key=key):
        cg = c.get("cg", {})
        agreement = f"{c['agreement']:.1e}" if "agreement" in c else "-"
        gflops = f"{c['GFLOPs']:.1f}" if "GFLOPs" in c else "-"
        pct = f"{c['pct_dram_copy']:.0f}" if "pct_dram_copy" in c else "-"
        cg_rate = f"{cg['GDoFps_per_iteration']:.3f}" if cg else "-"
        lines.append(f"| {c['problem']} | {c['dofs']:.3g} | {c['cells']} | {c.get('ranks', 1)} | {c['variant']} | "
                     f"{c['seconds']:.3e} | {c['GDoFps']:.3f} | {gflops} | {c['bytes_per_dof']:.1f} | {pct} | "
                     f"{cg_rate} | {agreement} |")
    for c in skipped:
        lines.append(f"| {c['problem']} | {c['dofs']:.3g} | - | - | {c['variant']} | skipped: {c['skipped']} "
                     "| | | | | | |")
    return "\n".join(lines)


def plot(cases, device, path, value, ylabel, title, variants_filter=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    problems = [p for p in ("laplace", "elasticity") if any(c["problem"] == p for c in cases)]
    problems += sorted({c["problem"] for c in cases} - set(problems))
    all_variants = sorted({c["variant"] for c in cases}, key=variant_order)
    colours = plt.get_cmap("tab10" if len(all_variants) <= 10 else "tab20")
    rank_counts = sorted({c.get("ranks", 1) for c in cases})
    fig, axes = plt.subplots(1, len(problems), figsize=(5.5 * len(problems) + 2.5, 4.5), squeeze=False)
    for ax, p in zip(axes[0], problems):
        variants = [v for v in all_variants if any(c["problem"] == p and c["variant"] == v for c in cases)]
        if variants_filter:
            variants = [v for v in variants if variants_filter(v)]
        # Records of several rank counts: one line per variant and rank count.
        for v in variants:
            for i, r in enumerate(rank_counts):
                pts = sorted((c["dofs"], value(c)) for c in cases if c["problem"] == p and c["variant"] == v
                             and c.get("ranks", 1) == r and value(c) is not None)
                label = v if len(rank_counts) == 1 else f"{v}, {r} rank{'s' if r > 1 else ''}"
                colour = "k" if v == "noop" else colours(all_variants.index(v) % colours.N)
                if pts:
                    ax.plot([x for x, _ in pts], [y for _, y in pts], marker=marker(v),
                            linestyle=LINESTYLES[i % len(LINESTYLES)], color=colour, label=label)
        ax.set_xscale("log")
        ax.set_xlabel("DoFs")
        ax.set_ylabel(ylabel)
        ax.set_title(p)
        ax.set_ylim(bottom=0)
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    for ax in axes[0][1:]:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    fig.legend(handles, labels, loc="center right", fontsize=6)
    fig.suptitle(f"{title}, {device}" if device else title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1 - 2.6 / (5.5 * len(problems) + 2.5), 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+",
                        help="tensormg-bench-loworder JSON records (and perf/cusparse_spmv.py's lists)")
    parser.add_argument("--out", help="prefix of PREFIX.md, PREFIX-operator.png and PREFIX-cg.png")
    args = parser.parse_args()
    cases, skipped, device, _ = load(args.records)
    if not cases:
        sys.exit("no measured cases in the records")
    text = table(cases, skipped)
    print(text)
    if not args.out:
        return
    with open(args.out + ".md", "w") as f:
        f.write(f"tensormg-bench-loworder on {device}\n\n" + text + "\n")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("matplotlib is not installed: no plots (the table is in " + args.out + ".md)", file=sys.stderr)
        return
    plot(cases, device, args.out + "-operator.png", lambda c: c["GDoFps"], "GDoF/s (one application of A)",
         "Q1 operators on perturbed hexahedra: A(x)")
    plot(cases, device, args.out + "-cg.png",
         lambda c: c["cg"]["GDoFps_per_iteration"] if "cg" in c else None, "GDoF/s per CG iteration",
         "Q1 operators on perturbed hexahedra: one fused-CG iteration", lambda v: v != "noop")
    print(f"wrote {args.out}.md, {args.out}-operator.png, {args.out}-cg.png")


if __name__ == "__main__":
    main()
