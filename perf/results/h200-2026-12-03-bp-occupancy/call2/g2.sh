#!/usr/bin/env bash
# Device call g2 (2026-12-03, stop 48): cells per team of BP3.5 and BP3.0 at k = 5..8 after the
# 3-buffer scratch (call 1: the larger default teams left fewer warps per SM at the 128-register
# cap), swept for fbea7e9 ("new") and fbea7e9 + the per-team node maps ("info"), alternating,
# CG with the dot pass (call 1: the kernel dot measured slower). Same binaries as g1.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g1.tar.xz
B=build-g
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
for run in new-bp3.5 info-bp3.5 info-bp3.0 new-bp3.0; do
  late $run 500 && continue
  v=${run%%-*}; p=${run#*-}
  timeout 140 $B/perf/tensormg-bench-bp-$v --problems $p --degrees 5,6,7,8 --geometry stored,trilinear --cells-per-team 1,2,3,4,5,7 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --cg-variant fused-dot-pass --ceilings $C -o $R/sweep-$run.json --overwrite > $L/sweep-$run.txt 2>&1
  echo "sweep $run exit $?" >> $R/session.log
  stamp "sweep $run"
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
