#!/usr/bin/env bash
# Device call 3 (2026-11-28): the DG line kernel's buffers in the opt-in shared memory (A/B), its
# tests; an nsys profile of the BP5 CG iteration.
set -u
R=$OUT/r; mkdir -p $R
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/bins.tar.xz
B=build-cuda
stamp tests
timeout 150 $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.OptIn*:*Cuda.MatchesSequential*:*Cuda.N16*' > $R/test_dg_vertex_patch.txt 2>&1; echo "test_dg_vertex_patch exit $? $(grep -E '^\[  (PASSED|FAILED)|OK \]' $R/test_dg_vertex_patch.txt | tr '\n' ' ')" | tee -a $R/session.log
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.OptIn*' > $R/memcheck-optin.txt 2>&1; echo "memcheck exit $? $(grep 'ERROR SUMMARY' $R/memcheck-optin.txt | sort | uniq -c | tr '\n' ' ')" | tee -a $R/session.log
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
stamp dg-smoother
timeout 150 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 6,7,8 --dofs 3e7 --precisions double,float --dg-contractions lines --dg-shared-memory block,opt-in --repeats 5 --ceilings $C -o $R/dg-smoother-3d.json --overwrite > $R/dg-smoother-3d.txt 2>&1; grep -v '^#' $R/dg-smoother-3d.txt >> $R/session.log
timeout 60 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 7 --dofs 3e7 --precisions double --dg-contractions auto --repeats 5 --ceilings $C -o $R/dg-smoother-3d-k7-auto.json --overwrite > $R/dg-smoother-3d-k7-auto.txt 2>&1; grep -v '^#' $R/dg-smoother-3d-k7-auto.txt >> $R/session.log
stamp nsys
if command -v nsys >/dev/null 2>&1; then
  timeout 120 nsys profile -o $R/bp5-cg -f true --stats=false $B/perf/tensormg-bench-bp --problems bp3.5 --degrees 4 --dofs 2e7 --repeats 2 --cg-iterations 20 --warmup 0 -o $R/bp5-cg.json --overwrite > $R/nsys-run.txt 2>&1
  timeout 90 nsys stats --report cuda_gpu_kern_sum,cuda_api_sum --format csv -o $R/bp5-cg $R/bp5-cg.nsys-rep > $R/nsys-stats.txt 2>&1
  rm -f $R/bp5-cg.nsys-rep $R/bp5-cg.sqlite
  echo "nsys done $(ls $R | grep bp5-cg | tr '\n' ' ')" | tee -a $R/session.log
else
  echo "nsys not found" | tee -a $R/session.log
fi
stamp done
tar cJf $OUT/call3.tar.xz -C $OUT r && rm -rf $R
