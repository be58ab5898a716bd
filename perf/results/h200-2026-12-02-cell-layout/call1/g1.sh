#!/usr/bin/env bash
# Device call g1 (2026-12-02, session 2): HEAD e4beaf4's binaries. CUDA tests (laplace operator, tuning
# tables); Nsight Compute on the cell kernel at 3D FP64 k = 5..8 (what bounds it below 45 GDoF/s) and on
# the gathered kernel at k = 4 for contrast; operator 3D k = 5..8 store-interior / atomic, FP64 / FP32.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g1.tar.xz
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
O="$B/perf/tensormg-bench-operator --ceilings $C --spmv-max-gib 0 --repeats 10 --overwrite --dofs 6e7 --dims 3"
timeout 150 $O --degrees 5,6,7,8 --precisions double,float --scatter store-interior,atomic -o $R/op-k5678.json > $L/op-k5678.txt 2>&1; echo "op k5-8 exit $?" >> $R/session.log
stamp ncu
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for k in 5 6 7 8; do
  timeout 120 $NCU --set full --kernel-name-base demangled --kernel-name regex:CellOperatorKernel --launch-skip 3 --launch-count 1 $B/perf/tensormg-bench-operator --dims 3 --degrees $k --dofs 6e6 --precisions double --scatter store-interior --spmv-max-gib 0 --repeats 3 --warmup 0 > $R/ncu-cell-k$k.txt 2>&1
  echo "ncu cell k$k exit $?" >> $R/session.log
done
timeout 120 $NCU --set full --kernel-name-base demangled --kernel-name regex:CellOperatorKernel --launch-skip 3 --launch-count 1 $B/perf/tensormg-bench-operator --dims 3 --degrees 5 --dofs 6e6 --precisions float --scatter store-interior --spmv-max-gib 0 --repeats 3 --warmup 0 > $R/ncu-cell-k5-float.txt 2>&1
echo "ncu cell k5 float exit $?" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
