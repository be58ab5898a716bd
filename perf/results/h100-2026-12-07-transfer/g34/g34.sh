#!/usr/bin/env bash
# Device call g34 (2026-12-07, session 68): every Cuda test of the test binaries (after the header
# functors of cb9d6f0 and this session's transfer), test_multigrid_ranks on 2 ranks sharing the
# GPU, and compute-sanitizer memcheck on the vector sweeps (now functors) and the DG operator.
set -u
R=$OUT/r; mkdir -p $R/tests
for f in .device/bin34*.tar.xz; do tar xJf $f; done
t0=$(date +%s)
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) & watchdog=$!
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
B=build-cuda
for t in test_core test_laplace_operator test_bake_off test_low_order test_krylov test_poisson \
         test_dg_laplace test_dg_transfer test_dg_vertex_patch test_vertex_patch test_dg_multigrid test_low_order_multigrid; do
  [ -x $B/tests/$t ] || { echo "$t missing" >> $R/session.log; continue; }
  timeout 150 $B/tests/$t --gtest_filter='*Cuda*' > $R/tests/$t.txt 2>&1
  echo "$t exit $? $(grep -aE '^\[  (PASSED|FAILED)' $R/tests/$t.txt | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >> $R/session.log
done
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 150 mpiexec -n 2 $B/tests/test_multigrid_ranks --gtest_filter='*Cuda*' > $R/tests/test_multigrid_ranks-np2.txt 2>&1
echo "test_multigrid_ranks np2 exit $? $(grep -acE 'OK \]' $R/tests/test_multigrid_ranks-np2.txt) OK lines $(grep -acE 'FAILED' $R/tests/test_multigrid_ranks-np2.txt) FAILED lines $(( $(date +%s) - t0 )) s" >> $R/session.log
timeout 120 compute-sanitizer --tool memcheck $B/tests/test_core --gtest_filter='*Cuda*' > $R/memcheck-test_core.txt 2>&1
echo "memcheck test_core exit $? $(grep -aE 'ERROR SUMMARY' $R/memcheck-test_core.txt) $(( $(date +%s) - t0 )) s" >> $R/session.log
timeout 150 compute-sanitizer --tool memcheck $B/tests/test_dg_transfer --gtest_filter='*Cuda*' > $R/memcheck-test_dg_transfer.txt 2>&1
echo "memcheck test_dg_transfer exit $? $(grep -aE 'ERROR SUMMARY' $R/memcheck-test_dg_transfer.txt) $(( $(date +%s) - t0 )) s" >> $R/session.log
cat $R/session.log
grep -ah "FAILED  \]" $R/tests/*.txt | sort -u | head -20
kill $watchdog 2>/dev/null
cd $OUT && tar cJf r.tar.xz r && rm -rf r r-partial.tar.xz
