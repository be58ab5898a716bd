#!/usr/bin/env bash
# Device call g2 (2026-12-02): the gathering operator's products by rows (GatherProducts::rows)
# against by segments and against the cell kernel, 3D k = 2..8 FP64/FP32, two rounds; tile and
# z-run sweeps per degree; CUDA tests; memcheck + racecheck on the gathering kernel.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g2.tar.xz
B=build-g
C=perf/results/h200-2026-11-21-first-kernel/ceilings.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $R/env.txt 2>&1
stamp tests
timeout 240 $B/tests/test_laplace_operator --gtest_filter='*Cuda*' > $L/test_laplace_operator.txt 2>&1
echo "test_laplace_operator exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_laplace_operator.txt | tr '\n' ' ')" >> $R/session.log
timeout 120 mpiexec -n 2 $B/tests/test_laplace_operator --gtest_filter='*Cuda.TiledGather*' > $L/test_laplace_operator-np2.txt 2>&1
echo "test_laplace_operator np2 exit $? $(grep -cE 'OK \]' $L/test_laplace_operator-np2.txt) OK lines" >> $R/session.log
timeout 60 $B/tests/test_tuning_tables > $L/test_tuning_tables.txt 2>&1
echo "test_tuning_tables exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_tuning_tables.txt | tr '\n' ' ')" >> $R/session.log
stamp kernels
O="$B/perf/tensormg-bench-operator --ceilings $C --spmv-max-gib 0 --repeats 10 --overwrite --dofs 6e7"
for round in a b; do
  timeout 200 $O --dims 3 --degrees 2,3,4,5,6,7,8 --precisions double,float --scatter store-interior,gather --gather-products segments,rows -o $R/op3-$round.json > $L/op3-$round.txt 2>&1
  echo "operator 3D $round exit $?" >> $R/session.log
done
timeout 150 $O --dims 2 --degrees 2,3,4,5,6,7,8,9,10 --precisions double --scatter gather --gather-products segments,rows -o $R/op2.json > $L/op2.txt 2>&1
echo "operator 2D exit $?" >> $R/session.log
stamp sweeps
sweep() {  # degree, products, tiles, z nodes
  timeout 120 $O --dims 3 --degrees $1 --scatter gather --gather-products $2 --gather-tiles $3 --gather-z-nodes $4 -o $R/tiles-k$1-$2.json > $L/tiles-k$1-$2.txt 2>&1
  echo "tiles k$1 $2 exit $?" >> $R/session.log
}
sweep 2 segments 0x0,8x8,32x2,16x2,8x4 0,32,128
sweep 3 segments 0x0,8x3,14x2,4x4,6x4 0,24,120
sweep 4 segments 0x0,4x4,16x1,4x2 0,32,128
sweep 4 rows 0x0,4x4,16x1,4x2 0,128
sweep 5 rows 0x0,5x2,8x1,4x2,10x1 0,120
sweep 6 rows 0x0,3x2,7x1,4x1 0,120
sweep 7 rows 0x0,2x2,5x1,3x1 0,126
sweep 8 rows 0x0,2x2,3x1,2x1 0,128
stamp fmg
for spec in "7 5" "3 6"; do
  set -- $spec
  for sc in store-interior gather; do
    timeout 60 $B/drivers/tensormg-poisson --dim 3 -k $1 --cells 3 -r $2 --solver fmg --precision mixed --problem one --rtol 1e-9 --repeat 3 --scatter $sc > $L/poisson-q$1-mixed-$sc.txt 2>&1
    echo "poisson Q$1 mixed $sc exit $? $(grep -E 'solve time' $L/poisson-q$1-mixed-$sc.txt | head -1)" >> $R/session.log
  done
done
stamp sanitize
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 150 $CS --tool memcheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.TiledGather*' > $L/memcheck-op.txt 2>&1; echo "memcheck op exit $? $(tail -1 $L/memcheck-op.txt)" >> $R/session.log
timeout 150 $CS --tool racecheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.TiledGatherMatchesAssembled*' > $L/racecheck-op.txt 2>&1; echo "racecheck op exit $? $(tail -1 $L/racecheck-op.txt)" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
