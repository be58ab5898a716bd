#!/usr/bin/env bash
# Device call g1 (2026-12-05): the mode-split Ŝᵀ in two loops (for_each_mode; no run-time parity
# branch where the mode loop is unrolled partly, 3D k = 6..8 and 2D k >= 6) with 3D k = 6 in
# mode-split form (build-new) against 007c660 (build-base): Cuda tests, memcheck/racecheck, one
# smoothing step 2D/3D FP64/FP32 two rounds alternating, FMG Q6/Q7 both builds, ncu k = 6, 7.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
for f in .device/*.tar.xz; do tar xJf $f; done
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H200*) C=.device/ceilings-h200.json ;; *) C=.device/ceilings-h100.json ;; esac
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; echo "ceilings $C"; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_vertex_patch test_core; do
  timeout 150 build-new/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 120 $CS --tool memcheck build-new/tests/test_vertex_patch --gtest_filter='*Cuda.EveryDegree*' > $L/memcheck.txt 2>&1; echo "memcheck exit $? $(tail -1 $L/memcheck.txt)" >> $R/session.log
timeout 60 $CS --tool memcheck build-new/tests/test_core --gtest_filter='*Cuda*ModeSplit*' > $L/memcheck-core.txt 2>&1; echo "memcheck core exit $? $(tail -1 $L/memcheck-core.txt)" >> $R/session.log
timeout 120 $CS --tool racecheck build-new/tests/test_vertex_patch --gtest_filter='*Cuda.EveryDegreeDefault*' > $L/racecheck.txt 2>&1; echo "racecheck exit $? $(tail -1 $L/racecheck.txt)" >> $R/session.log
stamp smoother
for round in a b; do
  for b in base new; do
    [ $round = b ] && b=$([ $b = base ] && echo new || echo base)
    timeout 150 build-$b/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/smoother-3d-$b-$round.json --overwrite > $L/smoother-3d-$b-$round.txt 2>&1
    echo "smoother 3d $b $round exit $?" >> $R/session.log
  done
done
for b in base new; do
  timeout 120 build-$b/perf/tensormg-bench-multigrid --study smoother --dims 2 --degrees 5,6,7,8,9,10 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/smoother-2d-$b.json --overwrite > $L/smoother-2d-$b.txt 2>&1
  echo "smoother 2d $b exit $?" >> $R/session.log
done
stamp fmg
for b in base new; do
  timeout 200 build-$b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 6,7 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-$b.json --overwrite > $L/fmg-$b.txt 2>&1
  echo "fmg $b exit $?" >> $R/session.log
done
stamp ncu
for b in base new; do
  for k in 6 7; do
    [ $(( $(date +%s) - t0 )) -gt 480 ] && { echo "skipped ncu $b k$k (time)" >> $R/session.log; continue; }
    timeout 60 ncu --kernel-name-base demangled --kernel-name regex:VertexPatch.*Kernel --launch-skip 4 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats \
      --metrics l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum,smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum \
      build-$b/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees $k --dofs 1e7 --precisions double --repeats 1 > $L/ncu-$b-k$k.txt 2>&1
    echo "ncu $b k$k exit $?" >> $R/session.log
  done
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
