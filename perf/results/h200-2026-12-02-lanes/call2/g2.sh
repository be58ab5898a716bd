#!/usr/bin/env bash
# Device call g2 (2026-12-02, session 3): 42aedc2+'s binaries (evaluation auto). CUDA tests of the
# low-order operators and multigrid; the driver's elasticity multigrid solve with the default (auto:
# factorized on a GPU) and with lanes 4; the bench's auto against factorized and lanes 4.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g2.tar.xz
B=build-g
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $R/env.txt 2>&1
stamp tests
for t in test_low_order test_low_order_multigrid; do
  timeout 200 $B/tests/$t --gtest_filter='*Cuda*:LowOrderOptions*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_low_order --gtest_filter='*Cuda*MatrixFreeEqualsAssembled*' > $L/memcheck.txt 2>&1
echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log
stamp driver
for e in auto lanes; do
  extra=""; [ $e = lanes ] && extra="--lanes 4"
  timeout 120 $B/drivers/tensormg-loworder --problem elasticity --dirichlet z=0 --cells 9 --refinements 4 --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --preconditioner multigrid --evaluation $e $extra > $L/mg-elasticity-$e.txt 2>&1
  echo "driver $e exit $? $(grep -E 'operator  |iterations|solve time' $L/mg-elasticity-$e.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
done
stamp bench
timeout 150 $B/perf/tensormg-bench-loworder --problems laplace,elasticity --dofs 1e7 --renumber --operators mf --geometry on-the-fly --evaluation auto,factorized,lanes --lanes 4 --scatter atomic --repeats 10 --cg-iterations 20 --ceilings $C -o $R/lo-auto.json --overwrite > $L/lo-auto.txt 2>&1; echo "bench exit $?" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
