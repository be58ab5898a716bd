#!/usr/bin/env bash
# Device call g6 (2026-12-02, session 2): padded strides at 3D k = 5 and 8 again, now with linear line starts, against
# e4beaf4 (build-o). CUDA tests + memcheck/racecheck; operator 3D k = 5..8 FP64/FP32 store-interior,
# two rounds alternating.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g6.tar.xz; tar xJf .device/old.tar.xz
B=build-g
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $R/env.txt 2>&1
stamp tests
timeout 240 $B/tests/test_laplace_operator --gtest_filter='*Cuda*' > $L/test_laplace_operator.txt 2>&1
echo "test_laplace_operator exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_laplace_operator.txt | tr '\n' ' ')" >> $R/session.log
timeout 60 $B/tests/test_tuning_tables > $L/test_tuning_tables.txt 2>&1
echo "test_tuning_tables exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_tuning_tables.txt | tr '\n' ' ')" >> $R/session.log
stamp operator
for round in a b c; do
  for b in o g; do
    timeout 120 build-$b/perf/tensormg-bench-operator --ceilings $C --spmv-max-gib 0 --repeats 10 --overwrite --dofs 6e7 --dims 3 --degrees 5,6,7,8 --precisions double,float --scatter store-interior -o $R/op-$b-$round.json > $L/op-$b-$round.txt 2>&1
    echo "op $b $round exit $?" >> $R/session.log
  done
done
stamp ncu
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for k in 5 8; do
  for b in o g; do
    timeout 60 $NCU --section SpeedOfLight --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis_Tables --kernel-name-base demangled --kernel-name regex:CellOperatorKernel --launch-skip 3 --launch-count 1 build-$b/perf/tensormg-bench-operator --dims 3 --degrees $k --dofs 6e6 --precisions double --scatter store-interior --spmv-max-gib 0 --repeats 3 --warmup 0 > $R/ncu-k$k-$b.txt 2>&1
    echo "ncu k$k $b exit $?" >> $R/session.log
  done
done
stamp sanitize
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 200 $CS --tool memcheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.InteriorStores*:*Cuda.MatchesAssembledMatrixForAllDegrees3D' > $L/memcheck-op.txt 2>&1; echo "memcheck op exit $? $(tail -1 $L/memcheck-op.txt)" >> $R/session.log
timeout 200 $CS --tool racecheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.InteriorStores*' > $L/racecheck-op.txt 2>&1; echo "racecheck op exit $? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $L/racecheck-op.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
