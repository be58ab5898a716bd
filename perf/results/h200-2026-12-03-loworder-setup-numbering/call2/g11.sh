#!/usr/bin/env bash
# Device call g11 (2026-12-03, stop 50): the low-order set-up of this stop after call 1 (the dense
# elimination coalesced, host copies of the layout on first use, connectivity checked on the device,
# stencils kept on the device for the transfer), with call 1's changes (dense coarse matrix from
# element matrices without host syncs, colouring only for the coloured scatter, numbering on the
# device, the fine mesh handed from the refinement to the layout on the device) against 2b3724c
# ("old", the driver of stop 49's call 4), Laplace and elasticity CG + multigrid of 9.1e6 DoFs, two
# rounds alternating, Laplace 7.3e7 once each; a coloured-scatter solve; CUDA tests; memcheck; BP1.0
# on two meshes.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g11.tar.xz
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
# BP1.0 ran slower on the randomly perturbed brick than on the sine-deformed cube (stop 48: k = 4
# element 37 against 53.5 GDoF/s, not investigated): the same binary on both meshes, then Nsight
# Compute of the k = 4 element kernel on each.
C=$(ls build-g/ceilings.json 2>/dev/null)
for mesh in sine random; do
  late "bp $mesh" 520 && continue
  [ $mesh = sine ] && M="--deformation sine --amplitude 0.05" || M="--deformation random --amplitude 0.1"
  timeout 90 $B/perf/tensormg-bench-bp --problems bp1.0,bp3.5 --degrees 3,4,5,6 --dofs 2e7 $M --repeats 5 --warmup 0.1 --cg-iterations 0 -o $R/bp-$mesh.json --overwrite > $L/bp-$mesh.txt 2>&1
  echo "bp $mesh exit $?" >> $R/session.log
done
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for mesh in sine random; do
  late "ncu $mesh" 560 && continue
  [ $mesh = sine ] && M="--deformation sine --amplitude 0.05" || M="--deformation random --amplitude 0.1"
  timeout 45 $NCU --set full --kernel-name-base demangled --kernel-name regex:BakeOffKernel --launch-skip 1 --launch-count 1 $B/perf/tensormg-bench-bp --problems bp1.0 --degrees 4 --dofs 2e7 $M --repeats 1 --warmup 0 --cg-iterations 0 > $L/ncu-bp10-k4-$mesh.txt 2>&1
  echo "ncu bp1.0 k=4 $mesh exit $?" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
