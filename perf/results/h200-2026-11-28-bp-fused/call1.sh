#!/usr/bin/env bash
# Device call 1 (2026-11-28 session 37): fused BP operator, interior nodes stored and staged gather/scatter; CG marginal.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$OUT/r; mkdir -p $R
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/bins.tar.xz
B=build-cuda
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
C=.device/ceilings-h200.json
stamp tests
timeout 120 $B/tests/test_bake_off --gtest_filter='*Cuda*' > $R/test_bake_off.txt 2>&1; echo "test_bake_off exit $? $(grep -E 'PASSED|FAILED' $R/test_bake_off.txt | head -3 | tr '\n' ' ')" | tee -a $R/session.log
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_bake_off --gtest_filter='*Cuda*FullOperator*:*Cuda*TeamShapes*' > $R/memcheck-bp.txt 2>&1; echo "memcheck exit $? $(grep 'ERROR SUMMARY' $R/memcheck-bp.txt)" | tee -a $R/session.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $B/tests/test_bake_off --gtest_filter='*Cuda*FullOperator*' > $R/racecheck-bp.txt 2>&1; echo "racecheck exit $? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck-bp.txt)" | tee -a $R/session.log
stamp bp
timeout 200 $B/perf/tensormg-bench-bp --problems bp1.0,bp3.5,bp3.0 --degrees 2,3,4,5,6,7,8 --dofs 2e7 --repeats 5 --cg-iterations 20 --element-io lines,staged --interior-nodes store --ceilings $C -o $R/bp-store.json --overwrite > $R/bp-store.txt 2>&1; cat $R/bp-store.txt >> $R/session.log
stamp bp-atomic
timeout 120 $B/perf/tensormg-bench-bp --problems bp1.0,bp3.5,bp3.0 --degrees 2,3,4,5,6,7,8 --dofs 2e7 --repeats 5 --cg-iterations 20 --element-io lines --interior-nodes atomic --ceilings $C -o $R/bp-atomic.json --overwrite > $R/bp-atomic.txt 2>&1; cat $R/bp-atomic.txt >> $R/session.log
stamp done
tar cJf $OUT/call1.tar.xz -C $OUT r && rm -rf $R
