#!/usr/bin/env python3
"""The DG patch kernel, lines against block contractions per degree, from tensormg-bench-multigrid
(--study dg-smoother) and tensormg-bench-operator (--dg-evaluations patch) records.

  python3 perf/dg_block_plots.py --smoother LABEL=rec.json[,rec.json...] ... \
      [--operator LABEL=rec.json ...] [--solver dirichlet] [--markdown out.md] [--png out.png]

Each LABEL names one build; its records are rounds of the same run, reduced to their median per
(degree, contraction). A table (markdown) needs only the standard library; --png needs matplotlib.
"""
import argparse
import json
import statistics
import sys
from collections import defaultdict


def load(specs, key, select):
    """{label: {(degree, contraction): median GDoF/s}} from LABEL=file[,file] specs."""
    out = {}
    for spec in specs or []:
        label, _, files = spec.partition("=")
        if not files:
            sys.exit(f"dg_block_plots: '{spec}' is not LABEL=record.json[,record.json]")
        values = defaultdict(list)
        for name in files.split(","):
            with open(name) as f:
                record = json.load(f)
            for r in record.get("results", []):
                if select(r):
                    values[(r["degree"], key(r))].append(r["GDoFps"])
        if not values:
            sys.exit(f"dg_block_plots: no matching results in {files}")
        out[label] = {k: statistics.median(v) for k, v in values.items()}
    return out


def table(title, data):
    degrees = sorted({k for series in data.values() for (k, _) in series})
    columns = [(label, c) for label, series in data.items() for c in sorted({c for (_, c) in series})]
    lines = [f"### {title}", "", "| k | " + " | ".join(f"{l} {c}" for l, c in columns) + " |",
             "|---|" + "---|" * len(columns)]
    for k in degrees:
        cells = [f"{data[l].get((k, c), float('nan')):.3f}" for l, c in columns]
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--smoother", action="append", help="LABEL=dg-smoother record(s)")
    p.add_argument("--operator", action="append", help="LABEL=operator record(s)")
    p.add_argument("--solver", default="dirichlet", help="local solver of the smoother rows")
    p.add_argument("--markdown")
    p.add_argument("--png")
    a = p.parse_args()
    smoother = load(a.smoother, lambda r: r["contraction"],
                    lambda r: r.get("local_solver") == a.solver and r.get("precision") == "double")
    operator = load(a.operator, lambda r: r["contraction"],
                    lambda r: r.get("evaluation") == "patch" and r.get("precision") == "double")
    text = ""
    if smoother:
        text += table(f"One smoothing step ({a.solver}), GDoF/s", smoother)
    if operator:
        text += ("\n" if text else "") + table("Patch-wise operator, GDoF/s", operator)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    print(text, end="")
    if a.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        panels = [(f"one smoothing step ({a.solver})", smoother)] if smoother else []
        if operator:
            panels.append(("patch-wise operator", operator))
        fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4), squeeze=False)
        for ax, (title, data) in zip(axes[0], panels):
            for label, series in data.items():
                for c in sorted({c for (_, c) in series}):
                    pts = sorted((k, v) for (k, cc), v in series.items() if cc == c)
                    ax.plot([k for k, _ in pts], [v for _, v in pts], marker="o", label=f"{label}: {c}")
            ax.set_xticks(sorted({k for series in data.values() for (k, _) in series}))
            ax.set_xlabel("degree k (3D, FP64)")
            ax.set_ylabel("GDoF/s")
            ax.set_title(title)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(a.png, dpi=120)


if __name__ == "__main__":
    main()
