#!/usr/bin/env bash
# Device call g10 (2026-12-03, stop 50): the low-order set-up of this stop (dense coarse matrix from
# element matrices without host syncs, colouring only for the coloured scatter, numbering on the
# device, the fine mesh handed from the refinement to the layout on the device) against 2b3724c
# ("old", the driver of stop 49's call 4), Laplace and elasticity CG + multigrid of 9.1e6 DoFs, two
# rounds alternating, Laplace 7.3e7 once each; a coloured-scatter solve; CUDA tests; memcheck.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g10.tar.xz
B=build-g
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; nproc; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 200 $B/tests/test_low_order_multigrid > $L/test_low_order_multigrid.txt 2>&1
echo "test_low_order_multigrid exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_low_order_multigrid.txt | tr '\n' ' ')" >> $R/session.log
timeout 200 $B/tests/test_low_order > $L/test_low_order.txt 2>&1
echo "test_low_order exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_low_order.txt | tr '\n' ' ')" >> $R/session.log
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_low_order --gtest_filter='*Cuda*' > $L/memcheck-low-order.txt 2>&1
echo "memcheck test_low_order exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck-low-order.txt | tr '\n' ' ')" >> $R/session.log
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_low_order_multigrid --gtest_filter='*Cuda*' > $L/memcheck-multigrid.txt 2>&1
echo "memcheck test_low_order_multigrid exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck-multigrid.txt | tr '\n' ' ')" >> $R/session.log
LAP="--problem laplace --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --cells 13 --refinements 4 --preconditioner multigrid"
ELA="--problem elasticity --dirichlet z=0 --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --cells 9 --refinements 4 --preconditioner multigrid"
stamp ab
for run in old-a new-a new-b old-b; do
  for p in lap ela; do
    late "$run $p" 380 && continue
    [ $p = lap ] && A="$LAP" || A="$ELA"
    timeout 90 $B/drivers/tensormg-loworder-${run%-*} $A --record $R/$p-$run.json --overwrite > $L/$p-$run.txt 2>&1
    echo "loworder $p $run exit $? $(grep -E 'setup time|solve time|iterations  ' $L/$p-$run.txt | tr -s ' ' | tr '\n' ' ')" >> $R/session.log
  done
done
stamp coloured
timeout 60 $B/drivers/tensormg-loworder-new $LAP --scatter coloured --record $R/lap-coloured.json --overwrite > $L/lap-coloured.txt 2>&1
echo "loworder lap coloured exit $? $(grep -E 'setup time|solve time|iterations  ' $L/lap-coloured.txt | tr -s ' ' | tr '\n' ' ')" >> $R/session.log
stamp big
for v in new old; do
  late "big $v" 470 && continue
  timeout 100 $B/drivers/tensormg-loworder-$v --problem laplace --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --cells 13 --refinements 5 --preconditioner multigrid --record $R/lap-big-$v.json --overwrite > $L/lap-big-$v.txt 2>&1
  echo "loworder lap big $v exit $? $(grep -E 'setup time|solve time' $L/lap-big-$v.txt | tr -s ' ' | tr '\n' ' ')" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
