#!/usr/bin/env python3
"""Shared-memory wavefronts of the 3D continuous cell kernel (discretization/laplace_kernels.hpp,
even-odd form, one work item per thread) by scratch layout, and a search for padded strides.

A model, not a measurement: it replays one team's scratch addresses and counts wavefronts as the
hardware serves them: FP64, a half-warp per wavefront and a bank pair per double; FP32, a warp
per wavefront and a bank per float; one extra wavefront per extra distinct address on the busiest
bank (pair). Threads: work item w = line (w / cells) of cell (w % cells). Steps: x (each thread
stores its x line's outputs, pairs o and n - 1 - o, to both buffers), y (loads its y line from
both buffers, stores the outputs in place), z (loads its z line from both; the outputs go to the
global vector). Layout: node (i, j, l) of cell c at c*cell + i + j*x + l*xy.

Checked against Nsight Compute, 3D FP64 (results/h200-2026-12-02-cell-layout/call2/ncu-*.txt,
dense layout): the model's excess wavefronts per team / ncu's bank conflicts per team:
k = 5, 4 cells: loads 216 / 229, stores 216 / 240; k = 7, 2 cells: 256 / 277, 512 / 550;
k = 7, 3 and 4 cells: loads 768 / 794, 1536 / 1557.

Usage: python3 perf/cell_bank_model.py [--search]   (prints the dense and the padded
layouts per degree with the default cells per team; --search: the best strides near dense).
"""
import sys

CELLS = {3: 8, 4: 5, 5: 4, 6: 3, 7: 2, 8: 2}  # cells_per_team_of(row, lines) of the device rows
# The strides the search found, (x, xy, cell) for double, float; the tuning rows use them
# (3D FP64 1.02, 1.03, 1.05, 1.02x dense at k = 5..8, results/h200-2026-12-02-cell-layout/call6).
ROWS = {
    5: ((7, 42, 252), (9, 54, 328)),
    6: ((7, 55, 395), (9, 71, 523)),
    7: ((9, 72, 584), (9, 72, 592)),
    8: ((9, 81, 744), (9, 89, 816)),
}


def wavefronts(addresses, bytes_per_value):
    """Wavefronts of one warp instruction; addresses in values, None for idle lanes."""
    group, banks_of = (16, 16) if bytes_per_value == 8 else (32, 32)
    total = ideal = 0
    for first in range(0, 32, group):
        part = [a for a in addresses[first:first + group] if a is not None]
        if not part:
            continue
        banks = {}
        for a in part:
            banks.setdefault(a % banks_of, set()).add(a)
        total += max(len(v) for v in banks.values())
        ideal += 1
    return total, ideal


def team(n, cells, x, xy, cell, bytes_per_value):
    """(excess, total) wavefronts of one team's scratch loads and stores."""
    def at(c, i, j, l):
        return c * cell + i + j * x + l * xy
    half = n // 2
    outputs = [p for o in range(half) for p in (o, n - 1 - o)] + ([half] if n % 2 else [])
    loads, stores = [], []
    for p in outputs:  # x step: line (j, l)
        stores += [lambda c, ln, p=p: at(c, p, ln % n, ln // n)] * 2
    for m in range(n):  # y step: line (i, l)
        loads += [lambda c, ln, m=m: at(c, ln % n, m, ln // n)] * 2
    for p in outputs:
        stores += [lambda c, ln, p=p: at(c, ln % n, p, ln // n)] * 2
    for m in range(n):  # z step: line (i, j)
        loads += [lambda c, ln, m=m: at(c, ln % n, ln // n, m)] * 2
    items = cells * n * n
    result = []
    for instructions in (loads, stores):
        excess = total = 0
        for f in instructions:
            for warp in range(0, items, 32):
                lanes = [f(w % cells, w // cells) if w < items else None for w in range(warp, warp + 32)]
                t, i = wavefronts(lanes, bytes_per_value)
                total += t
                excess += t - i
        result.append((excess, total))
    return result


def dense(n):
    return n, n * n, n ** 3 | 1


def main():
    search = "--search" in sys.argv
    for k in sorted(ROWS):
        n, cells = k + 1, CELLS[k]
        for bytes_per_value, row in ((8, ROWS[k][0]), (4, ROWS[k][1])):
            name = "FP64" if bytes_per_value == 8 else "FP32"
            (le, lt), (se, st) = team(n, cells, *dense(n), bytes_per_value)
            (pe, pt), (qe, qt) = team(n, cells, *row, bytes_per_value)
            print(f"3D k={k} {name} {cells} cells: dense {lt + st} wavefronts ({le + se} excess); "
                  f"padded {row}: {pt + qt} ({pe + qe} excess)")
            if search:
                best = min((sum(e for e, _ in team(n, cells, x, xy, cell, bytes_per_value)), (x, xy, cell))
                           for x in range(n, n + 5) for xy in range(n * x, n * x + 9)
                           for cell in range(n * xy, n * xy + (17 if bytes_per_value == 8 else 33)))
                print(f"  best near dense: strides {best[1]}, {best[0]} excess")


if __name__ == "__main__":
    main()
