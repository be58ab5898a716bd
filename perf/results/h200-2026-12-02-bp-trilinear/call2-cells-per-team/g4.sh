#!/usr/bin/env bash
# Device call g4 (2026-12-02, session 4): the default cells per team of the stored and the
# trilinear geometry after the scratch check's fix (commit in commit.txt), BP3.5 k = 4 and BP3.0 k = 3
# (the two cases the earlier binary gave 9 instead of 10), with CUDA test_bake_off.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
tar xJf .device/g4.tar.xz
B=build-g
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
for p in "bp3.5 4" "bp3.0 3"; do
  set -- $p
  timeout 60 $B/perf/tensormg-bench-bp --problems $1 --degrees $2 --dofs 2e7 --deformation random --amplitude 0.1 --geometry stored,trilinear --repeats 5 --cg-iterations 20 --ceilings $C -o $R/bp-$1-k$2.json --overwrite > $L/bp-$1-k$2.txt 2>&1
  echo "bp $1 k=$2 exit $?" >> $R/session.log
done
timeout 150 $B/tests/test_bake_off --gtest_filter='*Cuda*:BakeOffNames*' > $L/test_bake_off.txt 2>&1
echo "test_bake_off exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_bake_off.txt | tr '\n' ' ')" >> $R/session.log
cd $OUT && tar cJf r.tar.xz r && rm -rf r
