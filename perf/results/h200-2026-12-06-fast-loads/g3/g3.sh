#!/usr/bin/env bash
# Device call g3 (2026-12-06): the line kernel with fast-scratch loads and generic stores (r0/r1 in
# DgPatchKernel::run) against the generic kernel, one binary: 3D k = 1..8 FP64/FP32 lines, 2D
# k = 1..10 FP64/FP32, two rounds; Cuda DG tests; memcheck and racecheck of the fast-scratch test;
# ncu of 3D FP64 k = 4 (spills gone?).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 565; cd $OUT && tar cJf r-partial.tar.xz r ) &  # the tool returns few loose files
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H200*) C=.device/ceilings-h200.json ;; *) C=.device/ceilings-h100.json ;; esac
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; echo "ceilings $C"; cat .device/commit.txt; } > $R/env.txt 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
B=build-cuda/perf/tensormg-bench-multigrid
stamp tests
for t in test_dg_vertex_patch test_dg_multigrid; do
  timeout 150 build-cuda/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -a -E 'PASSED|FAILED' $L/$t.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
done
stamp dg-smoother
for round in a b; do
  timeout 150 $B --study dg-smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --dg-contractions lines --dg-scratch-pointers generic,fast --repeats 5 --ceilings $C -o $R/dg3-lines-$round.json --overwrite > $L/dg3-lines-$round.txt 2>&1
  echo "dg3 lines $round exit $?" >> $R/session.log
  timeout 120 $B --study dg-smoother --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 3e7 --precisions double,float --dg-scratch-pointers generic,fast --repeats 5 --ceilings $C -o $R/dg2-$round.json --overwrite > $L/dg2-$round.txt 2>&1
  echo "dg2 $round exit $?" >> $R/session.log
done
stamp ncu
M=launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,smsp__inst_executed.sum,sm__sass_inst_executed_op_shared_ld.sum,sm__sass_inst_executed_op_local_ld.sum,sm__sass_inst_executed_op_local_st.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio
for ptr in generic fast; do
  timeout 60 $NCU --kernel-name-base mangled --kernel-name regex:DgPatch --launch-skip 8 --launch-count 1 --metrics $M --csv $B --study dg-smoother --dims 3 --degrees 4 --dofs 2e6 --precisions double --dg-contractions lines --dg-scratch-pointers $ptr --repeats 1 -o /tmp/x.json --overwrite > $L/ncu-3d-k4-double-$ptr.csv 2>&1
  echo "ncu 3d k4 double $ptr exit $?" >> $R/session.log
done
stamp sanitizers
timeout 120 $CS --tool memcheck build-cuda/tests/test_dg_vertex_patch --gtest_filter='*Cuda*FastScratch*:*Cuda*MatchesSequential*' > $L/memcheck-dg.txt 2>&1
echo "memcheck dg exit $? $(grep -a -E 'ERROR SUMMARY' $L/memcheck-dg.txt | tail -1)" >> $R/session.log
timeout 150 $CS --tool racecheck build-cuda/tests/test_dg_vertex_patch --gtest_filter='*Cuda*FastScratch*' > $L/racecheck-dg.txt 2>&1
echo "racecheck dg exit $? $(grep -a -E 'RACECHECK SUMMARY|ERROR SUMMARY' $L/racecheck-dg.txt | tail -1)" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
