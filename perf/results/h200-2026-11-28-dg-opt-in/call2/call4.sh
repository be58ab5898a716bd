#!/usr/bin/env bash
# Device call 4 (2026-11-28): the DG opt-in shared memory after the fallback fix: tests, memcheck,
# the A/B at 3D k = 7, 8 (FP32 k = 8 included), auto = the new row.
set -u
R=$OUT/r; mkdir -p $R
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/bins.tar.xz
B=build-cuda
stamp tests
timeout 150 $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda*' > $R/test_dg_vertex_patch.txt 2>&1; echo "test_dg_vertex_patch exit $? $(grep -E '^\[  (PASSED|FAILED)|OK \]' $R/test_dg_vertex_patch.txt | tr '\n' ' ')" | tee -a $R/session.log
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.OptIn*' > $R/memcheck-optin.txt 2>&1; echo "memcheck exit $? $(grep 'ERROR SUMMARY' $R/memcheck-optin.txt | sort | uniq -c | tr '\n' ' ')" | tee -a $R/session.log
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
stamp dg-smoother
timeout 150 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 7,8 --dofs 3e7 --precisions double,float --dg-contractions lines --dg-shared-memory block,opt-in,auto --repeats 5 --ceilings $C -o $R/dg-smoother-3d.json --overwrite > $R/dg-smoother-3d.txt 2>&1; echo "exit $?" >> $R/session.log; grep -v '^#' $R/dg-smoother-3d.txt >> $R/session.log
stamp done
tar cJf $OUT/call4.tar.xz -C $OUT r && rm -rf $R
