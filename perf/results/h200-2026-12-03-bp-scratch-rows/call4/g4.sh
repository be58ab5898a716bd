#!/usr/bin/env bash
# Device call g4 (2026-12-03, stop 51): the k = 7 bake-off row's launch bounds at 192 threads x 2
# teams (a 170-register cap, against 256 x 2: 128 registers, where BP3.5 and BP3.0 spill) against
# HEAD 7433a4e's binary ("old": the committed tree, whose CG this also measures), two rounds
# alternating at k = 6, 7, 8; CUDA test_bake_off. Logs packed into $OUT/r/logs.tar.xz.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; tar cJf $R/logs.tar.xz -C $R logs; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g4.tar.xz
B=build-g
C=$B/ceilings.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $L/env.txt 2>&1
stamp tests
timeout 100 $B/tests/test_bake_off --gtest_filter='*Cuda*:BakeOffNames*' > $L/test_bake_off.txt 2>&1
echo "test_bake_off exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_bake_off.txt | tr '\n' ' ')" >> $R/session.log
ARGS="--problems bp1.0,bp3.5,bp3.0 --geometry stored,trilinear --degrees 2,3,4,5,6,7,8 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C"
stamp ab
for run in old-a new-a new-b old-b; do
  late $run 260 && continue
  timeout 80 $B/perf/tensormg-bench-bp-${run%-*} $ARGS -o $R/$run.json --overwrite > $L/$run.txt 2>&1
  echo "bp $run exit $?" >> $R/session.log
  stamp "bp $run"
done
stamp done
rm -rf $R/logs
