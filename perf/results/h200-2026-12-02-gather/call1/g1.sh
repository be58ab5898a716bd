#!/usr/bin/env bash
# Device call g1 (2026-12-02): the gathering Q_k operator by tiles (laplace_gather.hpp) against the
# cell kernel (store-interior, the automatic choice before) in one binary: CUDA tests of the
# operator and the tuning rows, memcheck + racecheck on the new kernel, operator sweeps 3D k = 2..8
# and 2D k = 2..10 (FP64, FP32), tile and z-run sweeps at 3D k = 2, 3, 4, 8.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g1.tar.xz
B=build-g
C=perf/results/h200-2026-11-21-first-kernel/ceilings.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; git log -1 --format=%H 2>/dev/null; } > $R/env.txt 2>&1
stamp tests
timeout 240 $B/tests/test_laplace_operator --gtest_filter='*Cuda*' > $L/test_laplace_operator.txt 2>&1
echo "test_laplace_operator exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_laplace_operator.txt | tr '\n' ' ')" >> $R/session.log
timeout 120 mpiexec -n 2 $B/tests/test_laplace_operator --gtest_filter='*Cuda.TiledGather*' > $L/test_laplace_operator-np2.txt 2>&1
echo "test_laplace_operator np2 exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_laplace_operator-np2.txt | tr '\n' ' ')" >> $R/session.log
timeout 60 $B/tests/test_tuning_tables > $L/test_tuning_tables.txt 2>&1
echo "test_tuning_tables exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_tuning_tables.txt | tr '\n' ' ')" >> $R/session.log
stamp kernels
O="$B/perf/tensormg-bench-operator --ceilings $C --spmv-max-gib 0 --repeats 10 --overwrite"
for round in a b; do
  timeout 200 $O --dims 3 --degrees 2,3,4,5,6,7,8 --dofs 6e7 --precisions double,float --scatter store-interior,gather -o $R/op3-$round.json > $L/op3-$round.txt 2>&1
  echo "operator 3D $round exit $?" >> $R/session.log
done
timeout 150 $O --dims 2 --degrees 2,3,4,5,6,7,8,9,10 --dofs 6e7 --precisions double --scatter store-interior,gather -o $R/op2.json > $L/op2.txt 2>&1
echo "operator 2D exit $?" >> $R/session.log
stamp sweeps
timeout 150 $O --dims 3 --degrees 2 --dofs 6e7 --scatter gather --gather-tiles 0x0,8x4,16x2,16x8,32x2,8x8 --gather-z-nodes 0,32,128 -o $R/tiles-k2.json > $L/tiles-k2.txt 2>&1
echo "tiles k2 exit $?" >> $R/session.log
timeout 150 $O --dims 3 --degrees 3,4 --dofs 6e7 --scatter gather --gather-tiles 0x0,4x4,8x2,10x2,8x1,16x1 --gather-z-nodes 0,24,128 -o $R/tiles-k34.json > $L/tiles-k34.txt 2>&1
echo "tiles k3,4 exit $?" >> $R/session.log
timeout 150 $O --dims 3 --degrees 5,6,7,8 --dofs 6e7 --scatter gather --gather-tiles 0x0,2x2,3x1,2x1,6x1 --gather-z-nodes 0,128 -o $R/tiles-k5678.json > $L/tiles-k5678.txt 2>&1
echo "tiles k5-8 exit $?" >> $R/session.log
stamp fmg
# The driver's FMG to 1e-9 (f = 1), the operator on every level by cell kernel or by tiles.
for round in a; do
  for spec in "3 6" "7 5" "2 6"; do
    set -- $spec
    for prec in mixed double; do
      for sc in store-interior gather; do
        timeout 60 $B/drivers/tensormg-poisson --dim 3 -k $1 --cells 3 -r $2 --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3 --scatter $sc > $L/poisson-q$1-$prec-$sc-$round.txt 2>&1
        echo "poisson Q$1 $prec $sc $round exit $? $(grep -E 'solve time|median' $L/poisson-q$1-$prec-$sc-$round.txt | head -2 | tr '\n' ' ')" >> $R/session.log
      done
    done
  done
done
stamp sanitize
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 150 $CS --tool memcheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.TiledGather*' > $L/memcheck-op.txt 2>&1; echo "memcheck op exit $? $(tail -1 $L/memcheck-op.txt)" >> $R/session.log
timeout 150 $CS --tool racecheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.TiledGatherMatchesAssembled*' > $L/racecheck-op.txt 2>&1; echo "racecheck op exit $? $(tail -1 $L/racecheck-op.txt)" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
