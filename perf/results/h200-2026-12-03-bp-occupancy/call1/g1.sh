#!/usr/bin/env bash
# Device call g1 (2026-12-03, stop 48): stop 47's bake-off changes (fbea7e9: p·Ap inside the fused
# kernel, x += αp in the direction's pass, BP3.x ∂_t u in the z-lines' registers and BP3.5 ∂_r u in
# the reading x-lines: scratch values per cell 19 → 15 n³ / 16 q³) against 77cb183's bench-bp, and
# fbea7e9 + the per-team cell node maps in scratch ("info"), three rounds alternating
# old/new/info/info/new/old; the kernel dot against the dot pass in one process; CUDA tests
# (info's test_bake_off, fbea7e9's test_low_order); Nsight Compute of BP3.5 k = 7 element kernel and
# fused operator (new and info); memcheck and racecheck of the kernel-dot tests; the fused I/O and
# cells-per-team sweep. Steps are skipped past 540 s (call limit 600 s).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g1.tar.xz
B=build-g
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 150 $B/tests/test_bake_off-info --gtest_filter='*Cuda*:BakeOffNames*' > $L/test_bake_off-info.txt 2>&1
echo "test_bake_off (info) exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_bake_off-info.txt | tr '\n' ' ')" >> $R/session.log
timeout 100 $B/tests/test_low_order --gtest_filter='*Cuda*:LowOrderOptions*' > $L/test_low_order.txt 2>&1
echo "test_low_order exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_low_order.txt | tr '\n' ' ')" >> $R/session.log
ARGS="--problems bp3.5,bp3.0 --geometry stored,trilinear --degrees 3,4,5,6,7,8 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C"
stamp ab
for run in old-a new-a info-a info-b new-b old-b; do
  late $run 420 && continue
  bin=$B/perf/tensormg-bench-bp-${run%-*}
  timeout 90 $bin $ARGS -o $R/$run.json --overwrite > $L/$run.txt 2>&1
  echo "bp $run exit $?" >> $R/session.log
  stamp "bp $run"
done
late cg 440 || {
  timeout 80 $B/perf/tensormg-bench-bp-info --problems bp3.5,bp1.0 --geometry stored --degrees 3,5,7 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C --cg-variant fused,fused-dot-pass -o $R/info-cg.json --overwrite > $L/info-cg.txt 2>&1
  echo "bp info-cg exit $?" >> $R/session.log; stamp cg; }
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for v in new info; do
  late ncu-$v 480 && continue
  # launches: element (warm-up), element (timed), fused operator (warm-up): the 2nd and 3rd
  timeout 60 $NCU --set full --kernel-name-base demangled --kernel-name regex:BakeOffKernel --launch-skip 1 --launch-count 2 $B/perf/tensormg-bench-bp-$v --problems bp3.5 --degrees 7 --dofs 2e7 --deformation random --amplitude 0.1 --geometry trilinear --repeats 1 --warmup 0 --cg-iterations 0 > $L/ncu-bp35-k7-trilinear-$v.txt 2>&1
  echo "ncu k=7 trilinear $v exit $?" >> $R/session.log
done
stamp sanitizers
late memcheck || {
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_bake_off-info --gtest_filter='*Cuda.KernelDot*:*Cuda.FusedCg*' > $L/memcheck.txt 2>&1
  echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log; }
late racecheck || {
  timeout 60 compute-sanitizer --tool racecheck --racecheck-report analysis --print-limit 20 $B/tests/test_bake_off-info --gtest_filter='*Cuda.KernelDot*' > $L/racecheck.txt 2>&1
  echo "racecheck exit $? $(grep -E 'RACECHECK SUMMARY' $L/racecheck.txt | tr '\n' ' ')" >> $R/session.log; }
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
