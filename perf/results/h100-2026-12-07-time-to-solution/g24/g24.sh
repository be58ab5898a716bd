#!/usr/bin/env bash
# Device call g24 (2026-12-07, session 65): vectors filled by a sweep (DistributedVector::fill,
# reinit without Kokkos' View initialization), the multigrid iteration borrowing the finest
# level's b and x instead of allocating per solve (mixed FMG's A x allocated at setup), and the Q1
# transfer by z-column segments on the GPU; against the driver of f945eb4 (-base; the committed
# code up to 1bb3f41's comment-only/refactor changes), same call, two rounds alternating; the
# kernel timer on the new binary; Cuda tests + memcheck.
set -u
R=$OUT/r; mkdir -p $R/solves $R/timer
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 570; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
for t in test_core test_multigrid; do
  timeout 240 build-cuda/tests/$t --gtest_filter='*/Cuda.*' > $R/$t.txt 2>&1
  echo "$t exit $? $(grep -a -E 'PASSED|FAILED' $R/$t.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout 200 mpiexec -n 2 --oversubscribe build-cuda/tests/test_multigrid_ranks --gtest_filter='*/Cuda.Transfers*' > $R/test_multigrid_ranks-np2.txt 2>&1
echo "test_multigrid_ranks np2 Transfers exit $? $(grep -a -E 'PASSED|FAILED' $R/test_multigrid_ranks-np2.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
timeout 200 compute-sanitizer --tool memcheck --print-limit 1000 --error-exitcode 9 build-cuda/tests/test_core --gtest_filter='VectorSweeps/Cuda.Fill*:VectorSweeps/Cuda.Updates*' > $R/memcheck-test_core.txt 2>&1
echo "memcheck test_core Fill/Updates exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/memcheck-test_core.txt)" >> $R/session.log
timeout 200 compute-sanitizer --tool memcheck --print-limit 1000 --error-exitcode 9 build-cuda/tests/test_multigrid --gtest_filter='*/Cuda.Q1Transfer*:*/Cuda.RepeatedSolves*' > $R/memcheck-test_multigrid.txt 2>&1
echo "memcheck test_multigrid Q1Transfer/RepeatedSolves exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/memcheck-test_multigrid.txt)" >> $R/session.log
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 100 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}')" >> $R/solves.txt
}
for round in a b; do
  for bin in base new; do
    [ $bin = new ] && P=build-cuda/drivers/tensormg-poisson || P=build-cuda/drivers/tensormg-poisson-$bin
    for spec in "-k 1 -r 9" "-k 3 -r 7" "-k 7 -r 6"; do
      for prec in double mixed; do
        run "cg$(echo "$spec" | tr -d ' -')-fmg-$prec-$bin-$round" $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
      done
    done
    run "cgk1r9-vcycle-mixed-$bin-$round" $P --dim 3 -k 1 -r 9 --solver vcycle --precision mixed --problem one --rtol 1e-9 --repeat 3
    run "cgk2c96-cg-double-$bin-$round" $P --dim 3 -k 2 --cells 96 -r 0 --solver cg --preconditioner jacobi --problem one --rtol 1e-9 --repeat 3
    run "dgk3r6-fmg-mixed-$bin-$round" $P --discretization dg --dim 3 -k 3 -r 6 --solver fmg --precision mixed --problem sine --rtol 1e-8 --repeat 3
  done
  echo "round $round done $(date +%T)" >> $R/session.log
done
for spec in "-k 1 -r 9" "-k 7 -r 6"; do
  for prec in double mixed; do
    name="q$(echo "$spec" | tr -d ' -')-$prec"
    KOKKOS_PROFILE_LIBRARY=build-cuda/perf/libtensormg-kernel-timer.so TENSORMG_KERNEL_TIMER_OUT=$R/timer/$name-table.txt \
      timeout 100 build-cuda/drivers/tensormg-poisson --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 > $R/timer/$name-timed.txt 2>&1
    echo "$name timed exit $?" >> $R/session.log
  done
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
