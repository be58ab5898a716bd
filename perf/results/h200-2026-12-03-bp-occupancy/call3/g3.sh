#!/usr/bin/env bash
# Device call g3 (2026-12-03, stop 48): the final tree (c75b2d4: node maps in scratch for the staged
# fused gather, cells per team per problem, CG with the dot pass) against fbea7e9 ("new", stop 47)
# and 77cb183 ("old", before stop 47), defaults of each, three rounds alternating; the kernel dot
# against the dot pass at the new teams; FP32 once; CUDA tests; memcheck and racecheck of the team
# shape and dot tests; Nsight Compute launch statistics of BP3.5 k = 7. Skips past 540 s.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g3.tar.xz
B=build-g
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 150 $B/tests/test_bake_off --gtest_filter='*Cuda*:BakeOffNames*' > $L/test_bake_off.txt 2>&1
echo "test_bake_off exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_bake_off.txt | tr '\n' ' ')" >> $R/session.log
timeout 60 $B/tests/test_tuning_tables > $L/test_tuning_tables.txt 2>&1
echo "test_tuning_tables exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_tuning_tables.txt | tr '\n' ' ')" >> $R/session.log
ARGS="--problems bp1.0,bp3.5,bp3.0 --geometry stored,trilinear --degrees 2,3,4,5,6,7,8 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C"
stamp ab
for run in old-a new-a final-a final-b new-b old-b; do
  late $run 400 && continue
  timeout 80 $B/perf/tensormg-bench-bp-${run%-*} $ARGS -o $R/$run.json --overwrite > $L/$run.txt 2>&1
  echo "bp $run exit $?" >> $R/session.log
  stamp "bp $run"
done
late cg 430 || {
  timeout 60 $B/perf/tensormg-bench-bp-final --problems bp3.5 --geometry stored,trilinear --degrees 3,5,7 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C --cg-variant fused,fused-kernel-dot -o $R/final-cg.json --overwrite > $L/final-cg.txt 2>&1
  echo "bp final-cg exit $?" >> $R/session.log; stamp cg; }
late fp32 450 || {
  timeout 60 $B/perf/tensormg-bench-bp-final --problems bp1.0,bp3.5,bp3.0 --geometry stored --degrees 3,5,7,8 --precisions float --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C -o $R/final-fp32.json --overwrite > $L/final-fp32.txt 2>&1
  echo "bp final-fp32 exit $?" >> $R/session.log; stamp fp32; }
late memcheck 490 || {
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_bake_off --gtest_filter='*Cuda.TeamShapes*:*Cuda.KernelDot*' > $L/memcheck.txt 2>&1
  echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log; }
late racecheck 520 || {
  timeout 60 compute-sanitizer --tool racecheck --racecheck-report analysis --print-limit 20 $B/tests/test_bake_off --gtest_filter='*Cuda.TeamShapes*' > $L/racecheck.txt 2>&1
  echo "racecheck exit $? $(grep -E 'RACECHECK SUMMARY' $L/racecheck.txt | tr '\n' ' ') bake-off kernel lines: $(grep -c BakeOffKernel $L/racecheck.txt)" >> $R/session.log; }
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
late ncu 545 || {
  timeout 40 $NCU --section SpeedOfLight --section Occupancy --section LaunchStats --kernel-name-base demangled --kernel-name regex:BakeOffKernel --launch-skip 2 --launch-count 1 $B/perf/tensormg-bench-bp-final --problems bp3.5 --degrees 7 --dofs 2e7 --deformation random --amplitude 0.1 --geometry stored --repeats 1 --warmup 0 --cg-iterations 0 > $L/ncu-bp35-k7-stored-final.txt 2>&1
  echo "ncu exit $?" >> $R/session.log; }
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
