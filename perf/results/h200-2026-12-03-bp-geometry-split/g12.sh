#!/usr/bin/env bash
# Device call g12 (2026-12-03, stop 50): the bake-off kernels with the trilinear geometry as a kernel
# of its own (the stored-factor kernels without its registers) against the binary before (HEAD~1's
# kernels, "old"), two rounds alternating as time allows; CUDA test_bake_off; memcheck of the
# trilinear tests. Results left in $OUT/r (not packed: a cut call keeps what it wrote).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g12.tar.xz
B=build-g
C=$B/ceilings.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 100 $B/tests/test_bake_off --gtest_filter='*Cuda*:BakeOffNames*' > $L/test_bake_off.txt 2>&1
echo "test_bake_off exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_bake_off.txt | tr '\n' ' ')" >> $R/session.log
ARGS="--problems bp1.0,bp3.5,bp3.0 --geometry stored,trilinear --degrees 2,3,4,5,6,7,8 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C"
stamp ab
for run in old-a new-a new-b old-b; do
  late $run 170 && continue
  timeout 80 $B/perf/tensormg-bench-bp-${run%-*} $ARGS -o $R/$run.json --overwrite > $L/$run.txt 2>&1
  echo "bp $run exit $?" >> $R/session.log
  stamp "bp $run"
done
late memcheck 280 || {
  timeout 40 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_bake_off --gtest_filter='*Cuda.Trilinear*' > $L/memcheck.txt 2>&1
  echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log; }
stamp done
