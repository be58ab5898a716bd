#!/usr/bin/env bash
# Device call g3 (2026-12-02): the final binary (segments only, the tiles of the call-2 sweep in the
# tuning rows): CUDA tests, memcheck; operator 3D k = 2, 3, 4 automatic (gathered) against the cell
# kernel and the tiles of call 1, two rounds; FMG Q2, Q3 automatic against store-interior.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g3.tar.xz
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
O="$B/perf/tensormg-bench-operator --ceilings $C --spmv-max-gib 0 --repeats 10 --overwrite --dofs 6e7 --dims 3 --precisions double,float"
for round in a b; do
  timeout 100 $O --degrees 2 --scatter auto,store-interior --gather-tiles 0x0,16x4 -o $R/op-k2-$round.json > $L/op-k2-$round.txt 2>&1; echo "k2 $round exit $?" >> $R/session.log
  timeout 100 $O --degrees 3 --scatter auto,store-interior -o $R/op-k3-$round.json > $L/op-k3-$round.txt 2>&1; echo "k3 $round exit $?" >> $R/session.log
  timeout 100 $O --degrees 4 --scatter auto,store-interior --gather-tiles 0x0,8x2 --gather-z-nodes 0,64 -o $R/op-k4-$round.json > $L/op-k4-$round.txt 2>&1; echo "k4 $round exit $?" >> $R/session.log
  timeout 100 $O --degrees 5,6,7,8 --scatter auto -o $R/op-k5678-$round.json > $L/op-k5678-$round.txt 2>&1; echo "k5-8 $round exit $?" >> $R/session.log
done
stamp fmg
for spec in "2 6" "3 6"; do
  set -- $spec
  for prec in mixed double; do
    for sc in store-interior auto; do
      timeout 60 $B/drivers/tensormg-poisson --dim 3 -k $1 --cells 3 -r $2 --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3 --scatter $sc > $L/poisson-q$1-$prec-$sc.txt 2>&1
      echo "poisson Q$1 $prec $sc exit $? $(grep -E 'solve time' $L/poisson-q$1-$prec-$sc.txt | head -1)" >> $R/session.log
    done
  done
done
stamp sanitize
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 150 $CS --tool memcheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.TiledGather*:*Cuda.MatchesAssembledMatrixForAllDegrees3D' > $L/memcheck-op.txt 2>&1; echo "memcheck op exit $? $(tail -1 $L/memcheck-op.txt)" >> $R/session.log
timeout 150 $CS --tool racecheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.TiledGatherMatchesCellKernel*' > $L/racecheck-op.txt 2>&1; echo "racecheck op exit $? $(tail -1 $L/racecheck-op.txt)" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
