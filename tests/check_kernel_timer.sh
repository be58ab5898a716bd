#!/usr/bin/env bash
# perf/kernel_timer.cpp loaded into a mixed FMG solve: its table names the solver's region with the kernels
# inside it, the operator's kernel, the gaps; the shares add up to at most 100%.
# usage: check_kernel_timer.sh <libtensormg-kernel-timer.so> <out> <launcher and tensormg-poisson...>
set -u
lib=$1 out=$2
shift 2
rm -f "$out"
KOKKOS_PROFILE_LIBRARY=$lib TENSORMG_KERNEL_TIMER_OUT=$out "$@" > /dev/null || { echo "the solve failed"; exit 1; }
[ -s "$out" ] || { echo "no table written to $out"; exit 1; }
fail=0
grep -q '^# tensormg kernel timer: [0-9.]* s' "$out" || { echo "no header"; fail=1; }
grep -E -q ' region solver::full_multigrid_mixed$' "$out" || { echo "no full-multigrid region"; fail=1; }
grep -E -q ' kernel tensormg::' "$out" || { echo "no tensormg kernel"; fail=1; }
grep -E -q ' gap before ' "$out" || { echo "no gaps"; fail=1; }
# Every row but regions (inclusive) is a disjoint part of the run: their shares sum to <= 100%.
awk '!/^#/ && !/ region / { s += $2 } END { if (s > 100.5 || s <= 0) { print "shares sum to " s; exit 1 } }' "$out" || fail=1
# The region's inner (kernel) seconds are within its own seconds.
awk '/ region solver::full_multigrid_mixed$/ { if ($5 > $1 * 1.0001 || $5 <= 0) { print "inner " $5 " of " $1; exit 1 } }' "$out" || fail=1
[ $fail = 0 ] || { cat "$out"; exit 1; }
echo "kernel timer table OK ($(grep -c '' "$out") lines)"
