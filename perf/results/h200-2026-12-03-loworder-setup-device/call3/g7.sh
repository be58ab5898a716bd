#!/usr/bin/env bash
# Device call g7 (2026-12-03, stop 49): the final tree (the shared prefix sum): CUDA tests of the
# low-order multigrid and operators, memcheck of the refinement, transfer and order tests, and the
# Laplace / elasticity set-up of 9.1e6 DoFs once more.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g7.tar.xz
B=build-g
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; nproc; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 200 $B/tests/test_low_order_multigrid > $L/test_low_order_multigrid.txt 2>&1
echo "test_low_order_multigrid exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_low_order_multigrid.txt | tr '\n' ' ')" >> $R/session.log
timeout 200 $B/tests/test_low_order > $L/test_low_order.txt 2>&1
echo "test_low_order exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_low_order.txt | tr '\n' ' ')" >> $R/session.log
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_low_order_multigrid --gtest_filter='*Cuda.ParallelRefinement*:*Cuda.Transfer*:*Cuda.RefinedCellOrder*:*Cuda.OneRank*' > $L/memcheck.txt 2>&1
echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log
stamp runs
for p in lap ela; do
  [ $p = lap ] && A="--problem laplace --cells 13" || A="--problem elasticity --dirichlet z=0 --cells 9"
  timeout 90 $B/drivers/tensormg-loworder $A --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --refinements 4 --preconditioner multigrid --record $R/$p.json --overwrite > $L/$p.txt 2>&1
  echo "loworder $p exit $? $(grep -E 'iterations  |relative true|setup time|solve time' $L/$p.txt | tr -s ' ' | tr '\n' ' ')" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
