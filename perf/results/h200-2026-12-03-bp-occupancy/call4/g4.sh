#!/usr/bin/env bash
# Device call g4 (2026-12-03, stop 48): the final tree (8ece056: node maps in scratch compiled in
# for the staged BP3.5 gather at k = 3..7 only; c75b2d4 of call 3 had them in every kernel; cells
# per team per problem; CG with the dot pass) against fbea7e9 ("new", stop 47) and 77cb183 ("old",
# before stop 47), defaults of each, three rounds alternating; CUDA tests; memcheck and racecheck
# of the team-shape and dot tests. Skips past the times given to late.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g4.tar.xz
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
  late $run 420 && continue
  timeout 80 $B/perf/tensormg-bench-bp-${run%-*} $ARGS -o $R/$run.json --overwrite > $L/$run.txt 2>&1
  echo "bp $run exit $?" >> $R/session.log
  stamp "bp $run"
done
late memcheck 490 || {
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_bake_off --gtest_filter='*Cuda.TeamShapes*:*Cuda.KernelDot*' > $L/memcheck.txt 2>&1
  echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log; }
late racecheck 520 || {
  timeout 60 compute-sanitizer --tool racecheck --racecheck-report analysis --print-limit 20 $B/tests/test_bake_off --gtest_filter='*Cuda.TeamShapes*' > $L/racecheck.txt 2>&1
  echo "racecheck exit $? $(grep -E 'RACECHECK SUMMARY' $L/racecheck.txt | tr '\n' ' ') bake-off kernel lines: $(grep -c BakeOffKernel $L/racecheck.txt)" >> $R/session.log; }
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
