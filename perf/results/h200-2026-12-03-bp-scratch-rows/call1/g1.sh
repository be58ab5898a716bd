#!/usr/bin/env bash
# Device call g1 (2026-12-03, stop 51): the bake-off kernels' scratch rows padded to odd length
# (conflict-free x-lines) against stop 50's final tree (HEAD's binary, "old": BP1.0 split, BP3.x
# one kernel, never run on the GPU before), two rounds alternating; CUDA test_bake_off; Nsight
# Compute: every kernel of a BP5 CG solve (speed of light: the split of an iteration) and the
# full set on the element kernel and fused operator, old and new; the separate gather; memcheck.
# Results in $OUT/r (not packed: a cut call keeps what it wrote).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g1.tar.xz
B=build-g
C=$B/ceilings.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 100 $B/tests/test_bake_off --gtest_filter='*Cuda*:BakeOffNames*' > $L/test_bake_off.txt 2>&1
echo "test_bake_off exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_bake_off.txt | tr '\n' ' ')" >> $R/session.log
ARGS="--problems bp1.0,bp3.5,bp3.0 --geometry stored,trilinear --degrees 2,3,4,5,6,7,8 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C"
stamp ab
for run in old-a new-a new-b old-b; do
  late $run 200 && continue
  timeout 80 $B/perf/tensormg-bench-bp-${run%-*} $ARGS -o $R/$run.json --overwrite > $L/$run.txt 2>&1
  echo "bp $run exit $?" >> $R/session.log
  stamp "bp $run"
done
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
late ncu-cg 300 || {
  timeout 60 $NCU --section SpeedOfLight --section LaunchStats --section Occupancy --kernel-name-base demangled $B/perf/tensormg-bench-bp-new --problems bp3.5 --degrees 5 --dofs 2e7 --deformation random --amplitude 0.1 --geometry stored --repeats 1 --warmup 0 --cg-iterations 3 > $L/ncu-cg-bp35-k5.txt 2>&1
  echo "ncu cg k=5 exit $?" >> $R/session.log; stamp "ncu cg"; }
for v in new old; do
  late ncu-full-$v 400 && continue
  timeout 60 $NCU --set full --kernel-name-base demangled --kernel-name regex:BakeOffKernel --launch-count 4 $B/perf/tensormg-bench-bp-$v --problems bp3.5 --degrees 7 --dofs 2e7 --deformation random --amplitude 0.1 --geometry stored --repeats 1 --warmup 0 --cg-iterations 0 > $L/ncu-full-bp35-k7-$v.txt 2>&1
  echo "ncu full k=7 $v exit $?" >> $R/session.log
  stamp "ncu full $v"
done
late separate 470 || {
  timeout 60 $B/perf/tensormg-bench-bp-new --problems bp3.5 --geometry stored --gather fused,separate --degrees 3,4,5,6,7,8 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C -o $R/separate.json --overwrite > $L/separate.txt 2>&1
  echo "bp separate exit $?" >> $R/session.log; stamp separate; }
late memcheck 530 || {
  timeout 50 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_bake_off --gtest_filter='*Cuda*' > $L/memcheck.txt 2>&1
  echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log; }
stamp done
