#!/usr/bin/env python3
"""cuSPARSE SpMV (through CuPy) of the CSR matrices tensormg-bench-loworder exports with --export-csr:
the best assembled SpMV on the GPU machine, on exactly our matrix (same rows, same numbering), timed
the same way (median of repeats, synchronized). Prints one JSON line per matrix and, with -o, writes
them as a JSON list that perf/loworder_plots.py merges with the benchmark's record.

Each exported matrix is <prefix>.json ({"rows", "nnz", "problem", "dofs"}) beside <prefix>.row_map
(int64), <prefix>.entries (int32) and <prefix>.values (float64), little-endian.

Usage: python3 perf/cusparse_spmv.py [--repeats 20] [-o cusparse.json] PREFIX [PREFIX ...]"""
import argparse
import json
import os
import statistics
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prefixes", nargs="+")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    try:
        import numpy as np
        import cupy as cp
        import cupyx.scipy.sparse as csp
    except ImportError as e:
        sys.exit(f"cusparse_spmv.py: needs numpy and cupy ({e})")
    if args.repeats < 1:
        sys.exit("cusparse_spmv.py: --repeats must be at least 1")
    records = []
    for prefix in args.prefixes:
        try:
            with open(prefix + ".json") as f:
                meta = json.load(f)
            rows, nnz = int(meta["rows"]), int(meta["nnz"])
            row_map = np.fromfile(prefix + ".row_map", dtype="<i8")
            entries = np.fromfile(prefix + ".entries", dtype="<i4")
            values = np.fromfile(prefix + ".values", dtype="<f8")
        except (OSError, ValueError, KeyError) as e:
            sys.exit(f"cusparse_spmv.py: cannot read the matrix {prefix}: {e}")
        if row_map.size != rows + 1 or entries.size != nnz or values.size != nnz or row_map[-1] != nnz:
            sys.exit(f"cusparse_spmv.py: {prefix}: sizes do not match its .json (rows {rows}, nnz {nnz})")
        # cuSPARSE takes 32-bit offsets here; refuse rather than truncate.
        if nnz >= 2**31:
            sys.exit(f"cusparse_spmv.py: {prefix}: {nnz} nonzeros need 64-bit offsets")
        A = csp.csr_matrix((cp.asarray(values), cp.asarray(entries), cp.asarray(row_map.astype(np.int32))),
                           shape=(rows, rows))
        x = cp.random.default_rng(1).random(rows)
        for _ in range(3):
            y = A @ x
        cp.cuda.Device().synchronize()
        times = []
        for _ in range(args.repeats):
            cp.cuda.Device().synchronize()
            t0 = time.perf_counter()
            y = A @ x
            cp.cuda.Device().synchronize()
            times.append(time.perf_counter() - t0)
        t = statistics.median(times)
        csr_bytes = nnz * 12 + (rows + 1) * 4 + 2 * rows * 8
        record = {"problem": meta.get("problem"), "dofs": meta.get("dofs", rows), "rows": rows, "nnz": nnz,
                  "variant": "cusparse", "seconds": t, "gdofs": meta.get("dofs", rows) / t / 1e9,
                  "gbytes_per_s": csr_bytes / t / 1e9, "matrix": os.path.basename(prefix)}
        print(json.dumps(record), flush=True)
        records.append(record)
        del A, x, y
        cp.get_default_memory_pool().free_all_blocks()
    if args.output:
        tmp = args.output + ".tmp"
        with open(tmp, "w") as f:
            json.dump(records, f, indent=1)
        os.replace(tmp, args.output)


if __name__ == "__main__":
    main()
