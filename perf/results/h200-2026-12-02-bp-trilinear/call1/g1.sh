#!/usr/bin/env bash
# Device call g1 (2026-12-02, session 4): the bake-off operators' trilinear geometry (factors formed
# from the cell's 8 vertices at every application) against the stored factors: the BP sweep k = 1..8
# at 2e7 DoFs on the randomly perturbed brick (trilinear cells, amplitude 0.1) FP64, stored and
# trilinear alternating in two rounds; CUDA tests of test_bake_off and test_low_order (the lanes unit
# split), memcheck of the trilinear tests; Nsight Compute of BP3.5 k = 7; FP32 once; the low-order
# Laplace multigrid's set-up breakdown at 9.1e6 DoFs. Steps are skipped past 530 s (call limit 600 s).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt 530 ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g1.tar.xz
B=build-g
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp bp
for round in a b; do
  for g in stored trilinear; do
    [ $round = b ] && g=$([ $g = stored ] && echo trilinear || echo stored)
    timeout 120 $B/perf/tensormg-bench-bp --problems bp1.0,bp3.5,bp3.0 --degrees 1,2,3,4,5,6,7,8 --dofs 2e7 --deformation random --amplitude 0.1 --geometry $g --repeats 5 --cg-iterations 20 --ceilings $C -o $R/bp-$g-$round.json --overwrite > $L/bp-$g-$round.txt 2>&1
    echo "bp $g $round exit $?" >> $R/session.log
    stamp "bp $g $round"
  done
done
stamp tests
for t in test_bake_off test_low_order; do
  late $t && continue
  timeout 150 $B/tests/$t --gtest_filter='*Cuda*:BakeOffNames*:LowOrderOptions*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
if ! late memcheck; then
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_bake_off --gtest_filter='*Cuda.Trilinear*' > $L/memcheck.txt 2>&1
  echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log
fi
stamp ncu
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for g in stored trilinear; do
  late ncu-$g && continue
  timeout 60 $NCU --kernel-name-base demangled --kernel-name regex:BakeOffKernel --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats $B/perf/tensormg-bench-bp --problems bp3.5 --degrees 7 --dofs 2e7 --deformation random --amplitude 0.1 --geometry $g --repeats 1 --cg-iterations 0 > $L/ncu-bp35-k7-$g.txt 2>&1
  echo "ncu k=7 $g exit $?" >> $R/session.log
done
if ! late fp32; then
  timeout 60 $B/perf/tensormg-bench-bp --problems bp3.5 --degrees 3,5,7 --dofs 2e7 --deformation random --amplitude 0.1 --geometry stored,trilinear --precisions float --repeats 5 --cg-iterations 20 --ceilings $C -o $R/bp-fp32.json --overwrite > $L/bp-fp32.txt 2>&1
  echo "bp fp32 exit $?" >> $R/session.log
fi
if false; then
  timeout 60 $B/drivers/tensormg-loworder --problem laplace --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --max-iterations 20000 --cells 13 --refinements 4 --preconditioner multigrid > $L/lo-laplace-mg-9e6.txt 2>&1
  echo "loworder laplace mg exit $?" >> $R/session.log
fi
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
