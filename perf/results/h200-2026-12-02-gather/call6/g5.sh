#!/usr/bin/env bash
# Device call g5 (2026-12-02): the gathering kernel without a register cap at k >= 5 (its own launch
# bound) against the cell kernel, 3D k = 5..8 FP64/FP32 and 2D k = 5..10 FP64, two rounds; the
# CUDA operator tests and memcheck on this binary; Nsight Compute at 3D k = 7.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g5.tar.xz
B=build-g
C=perf/results/h200-2026-11-21-first-kernel/ceilings.json
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $R/env.txt 2>&1
stamp tests
timeout 240 $B/tests/test_laplace_operator --gtest_filter='*Cuda*' > $L/test_laplace_operator.txt 2>&1
echo "test_laplace_operator exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_laplace_operator.txt | tr '\n' ' ')" >> $R/session.log
stamp kernels
O="$B/perf/tensormg-bench-operator --ceilings $C --spmv-max-gib 0 --repeats 10 --overwrite --dofs 6e7"
for round in a b; do
  timeout 150 $O --dims 3 --degrees 5,6,7,8 --precisions double,float --scatter store-interior,gather -o $R/op3-$round.json > $L/op3-$round.txt 2>&1; echo "3D $round exit $?" >> $R/session.log
  timeout 150 $O --dims 2 --degrees 5,6,7,8,9,10 --precisions double --scatter store-interior,gather -o $R/op2-$round.json > $L/op2-$round.txt 2>&1; echo "2D $round exit $?" >> $R/session.log
done
stamp sanitize
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 150 $CS --tool memcheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.TiledGather*' > $L/memcheck-op.txt 2>&1; echo "memcheck op exit $? $(tail -1 $L/memcheck-op.txt)" >> $R/session.log
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
timeout 120 $NCU --set full --kernel-name-base demangled --kernel-name regex:LaplaceGather --launch-skip 3 --launch-count 1 $B/perf/tensormg-bench-operator --dims 3 --degrees 7 --dofs 6e6 --precisions double --scatter gather --spmv-max-gib 0 --repeats 3 > $L/ncu-k7.txt 2>&1; echo "ncu k7 exit $?" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
