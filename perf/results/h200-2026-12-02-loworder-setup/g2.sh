#!/usr/bin/env bash
# Device call g2 (2026-12-02, session 4): the low-order set-up with its steps timed (commit in
# commit.txt: refinement by per-vertex lists, the validity check along lines of points), Laplace and
# elasticity CG + multigrid at 9.1e6 DoFs (perf/README's table; before: ../call0/lo-laplace-mg-9e6.txt,
# 666147c); CUDA tests of the low-order and bake-off code (TrilinearLine moved), memcheck.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g2.tar.xz
B=build-g
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp loworder
for round in a b; do
  timeout 90 $B/drivers/tensormg-loworder --problem laplace --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --max-iterations 20000 --cells 13 --refinements 4 --preconditioner multigrid > $L/lo-laplace-mg-9e6-$round.txt 2>&1
  echo "loworder laplace $round exit $?" >> $R/session.log
  timeout 90 $B/drivers/tensormg-loworder --problem elasticity --dirichlet z=0 --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --max-iterations 20000 --cells 9 --refinements 4 --preconditioner multigrid > $L/lo-elasticity-mg-9e6-$round.txt 2>&1
  echo "loworder elasticity $round exit $?" >> $R/session.log
done
stamp tests
for t in test_low_order_multigrid test_low_order test_bake_off; do
  timeout 150 $B/tests/$t --gtest_filter='*Cuda*:LowOrderOptions*:BakeOffNames*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_low_order_multigrid --gtest_filter='*Cuda*' > $L/memcheck.txt 2>&1
echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
