#!/usr/bin/env bash
# Device call g6 (2026-12-03, stop 49): the low-order set-up of HEAD (refinement, transfers on the device,
# refined levels in their parent's order) against e64fd18's driver ("old"), Laplace and elasticity CG + multigrid
# of 9.1e6 DoFs, two rounds alternating; the finer breakdown of the new driver (layout and
# multigrid steps); CUDA tests of the low-order multigrid (the parallel refinement against the
# sequential one) and memcheck of the refinement test.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g6.tar.xz
B=build-g
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; nproc; lscpu | grep "Model name"; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 200 $B/tests/test_low_order_multigrid > $L/test_low_order_multigrid.txt 2>&1
echo "test_low_order_multigrid exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_low_order_multigrid.txt | tr '\n' ' ')" >> $R/session.log
timeout 200 $B/tests/test_low_order > $L/test_low_order.txt 2>&1
echo "test_low_order exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_low_order.txt | tr '\n' ' ')" >> $R/session.log
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_low_order_multigrid --gtest_filter='*Cuda.ParallelRefinement*:*Cuda.Transfer*:*Cuda.RefinedCellOrder*' > $L/memcheck.txt 2>&1
echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log
LAP="--problem laplace --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --cells 13 --refinements 4 --preconditioner multigrid"
ELA="--problem elasticity --dirichlet z=0 --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --cells 9 --refinements 4 --preconditioner multigrid"
stamp ab
for run in old-a new-a new-b old-b; do
  for p in lap ela; do
    late "$run $p" 420 && continue
    [ $p = lap ] && A="$LAP" || A="$ELA"
    timeout 90 $B/drivers/tensormg-loworder-${run%-*} $A --record $R/$p-$run.json --overwrite > $L/$p-$run.txt 2>&1
    echo "loworder $p $run exit $? $(grep -E 'setup time|solve time' $L/$p-$run.txt | tr -s ' ' | tr '\n' ' ')" >> $R/session.log
  done
done
stamp big
late big 330 || {
  timeout 150 $B/drivers/tensormg-loworder-old --problem laplace --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --cells 13 --refinements 5 --preconditioner multigrid --record $R/lap-big-old.json --overwrite > $L/lap-big-old.txt 2>&1
  echo "loworder lap big old exit $? $(grep -E 'setup time|solve time' $L/lap-big-old.txt | tr -s ' ' | tr '\n' ' ')" >> $R/session.log; }
late big 450 || {
  timeout 120 $B/drivers/tensormg-loworder-new --problem laplace --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --cells 13 --refinements 5 --preconditioner multigrid --record $R/lap-big.json --overwrite > $L/lap-big.txt 2>&1
  echo "loworder lap big exit $? $(grep -E 'setup time|solve time' $L/lap-big.txt | tr -s ' ' | tr '\n' ' ')" >> $R/session.log; }
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
