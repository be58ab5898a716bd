#!/usr/bin/env bash
# Device call g25 (2026-12-07, session 65; trimmed to the device time left: -g24 against new only): (1) the V-cycle's residual r = b - A x formed by the Q1
# gathering kernel in its pass (LaplaceOperator::residual); (2) mixed FMG's start below the finest
# level by float V-cycles correcting the double residual (--mixed-start corrections, the new
# automatic choice) instead of double V-cycles. Binaries: -base (f945eb4), -g24 (c199c60: fills,
# no allocations, Q1 transfer by columns), new (this tree); same call, two rounds alternating.
# The kernel timer on the new binary; Cuda tests + memcheck of the new tests (last: the device
# budget was short).
set -u
R=$OUT/r; mkdir -p $R/solves $R/timer
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 570; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 100 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}')" >> $R/solves.txt
}
for round in a b; do
  for bin in g24 new; do
    [ $bin = new ] && P=build-cuda/drivers/tensormg-poisson || P=build-cuda/drivers/tensormg-poisson-$bin
    for spec in "-k 1 -r 9" "-k 3 -r 7" "-k 7 -r 6"; do
      for prec in double mixed; do
        run "cg$(echo "$spec" | tr -d ' -')-fmg-$prec-$bin-$round" $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
      done
      [ $bin = new ] && run "cg$(echo "$spec" | tr -d ' -')-fmg-mixedstartdouble-$bin-$round" $P --dim 3 $spec --solver fmg --precision mixed --mixed-start double --problem one --rtol 1e-9 --repeat 3
    done
    run "cgk1r9-vcycle-mixed-$bin-$round" $P --dim 3 -k 1 -r 9 --solver vcycle --precision mixed --problem one --rtol 1e-9 --repeat 3
    run "cgk3r7-fmg-mixed-sine-$bin-$round" $P --dim 3 -k 3 -r 7 --solver fmg --precision mixed --problem sine --rtol 1e-9 --repeat 3
    run "cgk7r6-fmg-mixed-sine-$bin-$round" $P --dim 3 -k 7 -r 6 --solver fmg --precision mixed --problem sine --rtol 1e-9 --repeat 3
    run "dgk3r6-fmg-mixed-$bin-$round" $P --discretization dg --dim 3 -k 3 -r 6 --solver fmg --precision mixed --problem sine --rtol 1e-8 --repeat 3
  done
  echo "round $round done $(date +%T)" >> $R/session.log
done
for spec in "-k 1 -r 9" "-k 7 -r 6"; do
  for prec in mixed; do
    name="q$(echo "$spec" | tr -d ' -')-$prec"
    KOKKOS_PROFILE_LIBRARY=build-cuda/perf/libtensormg-kernel-timer.so TENSORMG_KERNEL_TIMER_OUT=$R/timer/$name-table.txt \
      timeout 100 build-cuda/drivers/tensormg-poisson --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 > $R/timer/$name-timed.txt 2>&1
    echo "$name timed exit $?" >> $R/session.log
  done
done
for t in test_laplace_operator test_multigrid; do
  timeout 240 build-cuda/tests/$t --gtest_filter='*/Cuda.*' > $R/$t.txt 2>&1
  echo "$t exit $? $(grep -a -E 'PASSED|FAILED' $R/$t.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for np in 2; do
  timeout 200 mpiexec -n $np --oversubscribe build-cuda/tests/test_multigrid_ranks --gtest_filter='*/Cuda.Transfers*:*/Cuda.SolvesEqualOneRank*:*/Cuda.PointSmoothersAndMixed*' > $R/test_multigrid_ranks-np$np.txt 2>&1
  echo "test_multigrid_ranks np$np exit $? $(grep -a -E 'PASSED|FAILED' $R/test_multigrid_ranks-np$np.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
  timeout 200 mpiexec -n $np --oversubscribe build-cuda/tests/test_laplace_operator --gtest_filter='*/Cuda.Residual*' > $R/test_laplace_operator-np$np.txt 2>&1
  echo "test_laplace_operator np$np Residual exit $? $(grep -a -E 'PASSED|FAILED' $R/test_laplace_operator-np$np.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
done
timeout 200 compute-sanitizer --tool memcheck --print-limit 1000 --error-exitcode 9 build-cuda/tests/test_laplace_operator --gtest_filter='*/Cuda.Residual*' > $R/memcheck-test_laplace_operator.txt 2>&1
echo "memcheck test_laplace_operator Residual exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/memcheck-test_laplace_operator.txt)" >> $R/session.log
cd $OUT && tar cJf r.tar.xz r && rm -rf r
