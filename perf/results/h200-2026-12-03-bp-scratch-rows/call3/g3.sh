#!/usr/bin/env bash
# Device call g3 (2026-12-03, stop 51): the final tree (bake-off scratch rows padded where a row of
# 4 or 8 entries conflicted; vector reductions by teams on the GPU, core/vector_sum.hpp; BP3.5 k = 3
# at 8 cells per team) against stop 50's tree ("old"), two rounds alternating; CUDA tests
# (test_bake_off, test_core, test_krylov); the reduction kernels' durations old and new (Nsight
# Compute); BP3.5 k = 3 at 8 and 16 cells; the low-order CG; memcheck. Logs packed into
# $OUT/r/logs.tar.xz after each step (the tool returns 8 files).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; tar cJf $R/logs.tar.xz -C $R logs; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g3.tar.xz
B=build-g
C=$B/ceilings.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $L/env.txt 2>&1
stamp tests
timeout 100 $B/tests/test_bake_off --gtest_filter='*Cuda*:BakeOffNames*' > $L/test_bake_off.txt 2>&1
echo "test_bake_off exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_bake_off.txt | tr '\n' ' ')" >> $R/session.log
timeout 100 $B/tests/test_core > $L/test_core.txt 2>&1
echo "test_core exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_core.txt | tr '\n' ' ')" >> $R/session.log
timeout 150 $B/tests/test_krylov > $L/test_krylov.txt 2>&1
echo "test_krylov exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_krylov.txt | tr '\n' ' ')" >> $R/session.log
ARGS="--problems bp1.0,bp3.5,bp3.0 --geometry stored,trilinear --degrees 2,3,4,5,6,7,8 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C"
stamp ab
for run in old-a new-a new-b old-b; do
  late $run 260 && continue
  timeout 80 $B/perf/tensormg-bench-bp-${run%-*} $ARGS -o $R/$run.json --overwrite > $L/$run.txt 2>&1
  echo "bp $run exit $?" >> $R/session.log
  stamp "bp $run"
done
ONE="--problems bp3.5 --dofs 2e7 --deformation random --amplitude 0.1"
late cells 330 || {
  for v in a b; do timeout 40 $B/perf/tensormg-bench-bp-new $ONE --geometry stored,trilinear --degrees 3 --cells-per-team 8,16 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C -o $L/cells-k3-$v.json --overwrite > $L/cells-k3-$v.txt 2>&1; done
  echo "cells exit $?" >> $R/session.log; stamp cells; }
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for v in new old; do
  late ncu-$v 420 && continue
  timeout 60 $NCU --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size --kernel-name-base demangled --kernel-name 'regex:[Dd]ot|cg_|BakeOff' $B/perf/tensormg-bench-bp-$v $ONE --geometry stored --degrees 7 --repeats 1 --warmup 0 --cg-iterations 2 > $L/ncu-split-k7-$v.txt 2>&1
  echo "ncu split $v exit $?" >> $R/session.log; stamp "ncu $v"
done
late loworder 470 || {
  timeout 80 $B/perf/tensormg-bench-loworder --problems laplace,elasticity --dofs 1e7 --renumber --operators mf,spmv,noop --geometry on-the-fly --scatter atomic --repeats 10 --cg-iterations 20 --ceilings $C -o $L/lo-1e7.json --overwrite > $L/lo-1e7.txt 2>&1
  echo "loworder exit $?" >> $R/session.log; stamp loworder; }
late memcheck 540 || {
  timeout 50 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_core --gtest_filter='*VectorSum*' > $L/memcheck-core.txt 2>&1
  echo "memcheck core exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck-core.txt | tr '\n' ' ')" >> $R/session.log; }
stamp done
rm -rf $R/logs
