#!/usr/bin/env bash
# Device call g4 (2026-12-02, session 3): the final low-order binaries (LowOrderCellData refactor):
# CUDA tests, memcheck and synccheck, the bench's auto / factorized / lanes 4 at 1e7 DoFs.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g4.tar.xz
B=build-g
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $R/env.txt 2>&1
for t in test_low_order test_low_order_multigrid; do
  timeout 200 $B/tests/$t --gtest_filter='*Cuda*:LowOrderOptions*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
for tool in memcheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $B/tests/test_low_order --gtest_filter='*Cuda*MatrixFreeEqualsAssembled*:*Cuda*Textbook*' > $L/$tool.txt 2>&1
  echo "$tool exit $? $(grep -E 'ERROR SUMMARY' $L/$tool.txt | tr '\n' ' ')" >> $R/session.log
done
timeout 150 $B/perf/tensormg-bench-loworder --problems laplace,elasticity --dofs 1e7 --renumber --operators mf --geometry on-the-fly --evaluation auto,factorized,lanes --lanes 4 --scatter atomic --repeats 10 --cg-iterations 20 --ceilings $C -o $R/lo-auto.json --overwrite > $L/lo-auto.txt 2>&1; echo "bench exit $?" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
