#!/usr/bin/env bash
# Device call g3 (2026-12-02, session 2): the padded cell-kernel scratch strides (d1d9446) against
# e4beaf4 (build-o). CUDA tests + memcheck; operator 3D k = 5..8 FP64/FP32 store-interior, two rounds
# alternating; ncu bank conflicts at k = 5..8 FP64 and k = 7 FP32; FMG Q5/Q7 (driver, new binary only:
# the old driver did not fit the 64 MiB carry).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g3.tar.xz; tar xJf .device/old.tar.xz
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
for round in a b; do
  for b in o g; do
    timeout 120 build-$b/perf/tensormg-bench-operator --ceilings $C --spmv-max-gib 0 --repeats 10 --overwrite --dofs 6e7 --dims 3 --degrees 5,6,7,8 --precisions double,float --scatter store-interior -o $R/op-$b-$round.json > $L/op-$b-$round.txt 2>&1
    echo "op $b $round exit $?" >> $R/session.log
  done
done
stamp ncu
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for spec in "5 double" "6 double" "7 double" "8 double" "7 float"; do
  set -- $spec
  timeout 100 $NCU --set full --kernel-name-base demangled --kernel-name regex:CellOperatorKernel --launch-skip 3 --launch-count 1 $B/perf/tensormg-bench-operator --dims 3 --degrees $1 --dofs 6e6 --precisions $2 --scatter store-interior --spmv-max-gib 0 --repeats 3 --warmup 0 > $R/ncu-k$1-$2.txt 2>&1
  echo "ncu k$1 $2 exit $?" >> $R/session.log
done
stamp fmg
for spec in "5 5" "7 5"; do
  set -- $spec
  for prec in mixed double; do
    for b in g; do
      timeout 90 build-$b/drivers/tensormg-poisson --dim 3 -k $1 --cells 3 -r $2 --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3 > $L/poisson-q$1-$prec-$b.txt 2>&1
      echo "poisson Q$1 r$2 $prec $b exit $? $(grep -iE 'solve' $L/poisson-q$1-$prec-$b.txt | head -2 | tr '\n' ' ')" >> $R/session.log
    done
  done
done
stamp sanitize
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 200 $CS --tool memcheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.InteriorStores*:*Cuda.MatchesAssembledMatrixForAllDegrees3D' > $L/memcheck-op.txt 2>&1; echo "memcheck op exit $? $(tail -1 $L/memcheck-op.txt)" >> $R/session.log
timeout 200 $CS --tool racecheck $B/tests/test_laplace_operator --gtest_filter='*Cuda.InteriorStores*' > $L/racecheck-op.txt 2>&1; echo "racecheck op exit $? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $L/racecheck-op.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
