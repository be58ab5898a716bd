#!/usr/bin/env python3
"""Shared-memory wavefronts of the fused 3D per-column vertex-patch kernel (FP64), by layout.

A model, not a measurement: it replays the kernel's scratch addresses (smoothers/
vertex_patch_kernels.hpp, residual_columns and column_step) for one team and counts wavefronts
as the hardware serves 64-bit accesses: 16 threads (a half-warp) per wavefront, a bank pair per
double, and one extra wavefront per extra distinct address on the busiest bank pair. It checks
against ncu: at k = 7 (no padding) it gives 35.1% excessive wavefronts, ncu reported 35%
(perf/results/h100-2026-11-22-smoother/v11-fused-q7-48k/ncu-smoother-3d-k7.txt).

Usage: python3 perf/shared_bank_model.py  (prints, per degree with its default team, the
wavefronts with the z stride ni·n of the line buffers and with the padded stride ≡ ni mod 16).
"""


def wavefronts(address, columns, team, elements):
    """Columns w = 0..columns-1 handed out round-robin to `team` threads, each touching
    address(w, e) for e < elements in lockstep."""
    total = 0
    for first in range(0, columns, team):
        end = min(first + team, columns)
        for half in range(first, end, 16):
            threads = range(half, min(half + 16, end))
            for e in range(elements):
                banks = {}
                for w in threads:
                    a = address(w, e)
                    banks.setdefault(a % 16, set()).add(a)
                total += max(len(v) for v in banks.values())
    return total


def kernel_wavefronts(k, ppt, team, zs):
    n, ni = 2 * k + 1, 2 * k - 1
    line = n * zs  # entries of one patch's line buffer

    def per_patch(lines, f):
        return lambda w, e: f(w // lines, w % lines, e)

    total = 0
    # x step: closure rows (i1, i2), ni outputs stored to t0 and t1
    total += 2 * wavefronts(per_patch(n * n, lambda p, l, o: p * line + ni * (l % n) + zs * (l // n) + o), ppt * n * n, team, ni)
    # y step: columns (i0, i2): n loads from t0 and t1, ni stores to each
    total += 2 * wavefronts(per_patch(ni * n, lambda p, l, m: p * line + l % ni + ni * m + zs * (l // ni)), ppt * ni * n, team, n)
    total += 2 * wavefronts(per_patch(ni * n, lambda p, l, o: p * line + l % ni + ni * o + zs * (l // ni)), ppt * ni * n, team, ni)
    # z step: columns (i0, i1): n loads from t0 and t1, ni stores of the residual in place
    total += 2 * wavefronts(per_patch(ni * ni, lambda p, l, m: p * line + l + zs * m), ppt * ni * ni, team, n)
    total += wavefronts(per_patch(ni * ni, lambda p, l, o: p * line + l + zs * o), ppt * ni * ni, team, ni)

    def solve_step(d):
        def f(p, l, m):
            q0, q1 = l % ni, l // ni
            if d == 0:
                return p * line + ni * q0 + zs * q1 + m
            if d == 1:
                return p * line + q0 + zs * q1 + ni * m
            return p * line + q0 + ni * q1 + zs * m
        return wavefronts(per_patch(ni * ni, f), ppt * ni * ni, team, ni)

    # solve: Sᵀ along x, y, z (scaled), S along x, y (load + store), S along z (load, adds to x)
    for i, d in enumerate((0, 1, 2, 0, 1, 2)):
        total += (2 if i < 5 else 1) * solve_step(d)
    return total


def main():
    # (k, patches per team, threads per team) of the defaults (vertex_patch_smoother.cpp)
    for k, ppt, team in ((3, 6, 160), (4, 4, 224), (5, 2, 192), (6, 1, 128), (7, 1, 192)):
        n, ni = 2 * k + 1, 2 * k - 1
        plain = ni * n
        padded = plain + ((ni - plain) % 16 + 16) % 16
        a, b = kernel_wavefronts(k, ppt, team, plain), kernel_wavefronts(k, ppt, team, padded)
        kb = lambda zs: (ppt * 2 * n * zs * 8) / 1000
        print(f"k={k}: z stride {plain}: {a} wavefronts ({kb(plain):.1f} kB); "
              f"{padded}: {b} ({(b - a) / a * 100:+.0f}%, {kb(padded):.1f} kB)")


if __name__ == "__main__":
    main()
