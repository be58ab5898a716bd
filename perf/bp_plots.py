#!/usr/bin/env python3
"""Tables and the two classic bake-off plots from tensormg-bench-bp records (paper 003).

  perf/bp_plots.py RECORD.json [RECORD.json ...] --out PREFIX

writes PREFIX-throughput.png (element-kernel GDoF/s vs DoFs, one panel per operator, one line per
degree), PREFIX-roofline.png (GFLOP/s vs arithmetic intensity of the model bytes, the DRAM copy
roofline and the FMA ceiling of the record, every case a point), and prints a Markdown table of the
largest size per (operator, degree, precision, gather).
"""
import argparse
import json
import sys


def load(paths, prefetch="any"):
    cases, ceilings, device = [], {}, ""
    for path in paths:
        with open(path) as f:
            record = json.load(f)
        if record.get("kind") != "tensormg-bench-bp":
            sys.exit(f"{path}: not a tensormg-bench-bp record")
        ceilings = record.get("ceilings", ceilings)
        device = record.get("provenance", {}).get("device", device)
        cases += [c for c in record["results"] if "skipped" not in c
                  and (prefetch == "any" or c.get("prefetch", False) == (prefetch == "on"))]
    return cases, ceilings, device


def table(cases):
    largest = {}
    for c in cases:
        key = (c["problem"], c["degree"], c["precision"], c["operator"]["gather"])
        if key not in largest or c["dofs"] > largest[key]["dofs"]:
            largest[key] = c
    print("| BP | k | precision | DoFs | element GDoF/s | GFLOP/s | F/B | % DRAM copy | % roofline | gather | operator GDoF/s | CG GDoF/s per it. | CG marginal |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key in sorted(largest):
        c = largest[key]
        e, o, g = c["element_kernel"], c["operator"], c.get("cg", {})
        print(f"| {c['problem']} | {c['degree']} | {c['precision']} | {c['dofs']:.3g} | {e['GDoFps']:.2f} | "
              f"{e['GFLOPs']:.0f} | {e['arithmetic_intensity']:.2f} | {e.get('pct_dram_copy', 0):.0f} | "
              f"{e.get('pct_roofline', 0):.0f} | {o['gather']} | {o['GDoFps']:.2f} | "
              f"{g.get('GDoFps_per_iteration', 0):.2f} | {g.get('GDoFps_per_iteration_marginal', 0):.2f} |")


def plots(cases, ceilings, device, prefix):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    problems = sorted({c["problem"] for c in cases})
    fig, axes = plt.subplots(1, len(problems), figsize=(5 * len(problems), 4), squeeze=False)
    for ax, p in zip(axes[0], problems):
        for k in sorted({c["degree"] for c in cases if c["problem"] == p}):
            pts = sorted((c["dofs"], c["element_kernel"]["GDoFps"]) for c in cases
                         if c["problem"] == p and c["degree"] == k and c["precision"] == "double"
                         and c["operator"]["gather"] == "fused")
            if pts:
                ax.plot([x for x, _ in pts], [y for _, y in pts], "o-", label=f"k={k}")
        ax.set_xscale("log")
        ax.set_xlabel("DoFs")
        ax.set_ylabel("GDoF/s (element kernel, FP64)")
        ax.set_title(p)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"tensormg bake-off operators, {device}")
    fig.tight_layout()
    fig.savefig(prefix + "-throughput.png", dpi=120)

    fig, ax = plt.subplots(figsize=(6.5, 5))
    ai = [c["element_kernel"]["arithmetic_intensity"] for c in cases]
    lo, hi = min(ai) / 1.5, max(ai) * 1.5
    dram, fma = ceilings.get("dram_copy_GBps", 0), ceilings.get("fp64_fma_GFLOPs", 0)
    if dram > 0:
        xs = [lo * (hi / lo) ** (i / 50) for i in range(51)]
        ax.plot(xs, [min(dram * x, fma if fma > 0 else 1e30) for x in xs], "k-", label="DRAM copy roofline (FP64 FMA cap)")
    markers = {"bp1.0": "o", "bp3.5": "s", "bp3.0": "^"}
    for p in problems:
        for prec, fill in (("double", "full"), ("float", "none")):
            sel = [c for c in cases if c["problem"] == p and c["precision"] == prec]
            if not sel:
                continue
            big = {}
            for c in sel:
                if c["degree"] not in big or c["dofs"] > big[c["degree"]]["dofs"]:
                    big[c["degree"]] = c
            xs = [c["element_kernel"]["arithmetic_intensity"] for c in big.values()]
            ys = [c["element_kernel"]["GFLOPs"] for c in big.values()]
            ax.plot(xs, ys, markers.get(p, "o"), fillstyle=fill, label=f"{p} {prec}")
            for c, x, y in zip(big.values(), xs, ys):
                ax.annotate(str(c["degree"]), (x, y), fontsize=6, xytext=(2, 2), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (flops / model byte)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(f"bake-off element kernels on the DRAM roofline, {device}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(prefix + "-roofline.png", dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+")
    parser.add_argument("--out", help="prefix of the PNG files (no plots without it)")
    parser.add_argument("--prefetch", choices=["any", "on", "off"], default="any",
                        help="keep only the cases with the factors prefetched (on) or not (off)")
    args = parser.parse_args()
    cases, ceilings, device = load(args.records, args.prefetch)
    if not cases:
        sys.exit("no measured cases in the records")
    table(cases)
    if args.out:
        plots(cases, ceilings, device, args.out)


if __name__ == "__main__":
    main()
