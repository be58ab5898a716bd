#!/usr/bin/env bash
# Device call g15 (2026-12-06, session 63): the mixed iteration's float right-hand side in one sweep
# (b - Ax rounded into float with its norm; x += e converted back in a sweep with loads in flight;
# scaled only where the cycle multiplies in FP16) against 99c584b (-prev) and bc95e31 (-base), same
# call, two rounds alternating; the kernel timer on the new binary; Cuda tests + memcheck.
set -u
R=$OUT/r; mkdir -p $R/solves $R/timer
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
for t in test_core test_multigrid test_dg_multigrid; do
  timeout 300 build-cuda/tests/$t --gtest_filter='*/Cuda.*' > $R/$t.txt 2>&1
  echo "$t exit $? $(grep -a -E 'PASSED|FAILED' $R/$t.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
done
timeout 200 compute-sanitizer --tool memcheck --print-limit 1000 --error-exitcode 9 build-cuda/tests/test_core --gtest_filter='VectorSweeps/Cuda.*' > $R/memcheck-test_core.txt 2>&1
echo "memcheck test_core VectorSweeps exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/memcheck-test_core.txt)" >> $R/session.log
timeout 200 compute-sanitizer --tool memcheck --print-limit 1000 --error-exitcode 9 build-cuda/tests/test_dg_multigrid --gtest_filter='*/Cuda.Mixed*' > $R/memcheck-test_dg_multigrid.txt 2>&1
echo "memcheck test_dg_multigrid Mixed* exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/memcheck-test_dg_multigrid.txt)" >> $R/session.log
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 100 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}')" >> $R/solves.txt
}
for round in a b; do
  for bin in base prev new; do
    [ $bin = new ] && P=build-cuda/drivers/tensormg-poisson || P=build-cuda/drivers/tensormg-poisson-$bin
    for spec in "-k 1 -r 9" "-k 3 -r 7" "-k 7 -r 6"; do
      for prec in double mixed; do
        run "cg$(echo "$spec" | tr -d ' -')-fmg-$prec-$bin-$round" $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
      done
    done
    run "cgk1r9-vcycle-mixed-$bin-$round" $P --dim 3 -k 1 -r 9 --solver vcycle --precision mixed --problem one --rtol 1e-9 --repeat 3
    for spec in "-k 3 -r 6" "-k 7 --cells 3 -r 4"; do
      run "dg$(echo "$spec" | tr -d ' -')-fmg-mixed-$bin-$round" $P --discretization dg --dim 3 $spec --solver fmg --precision mixed --problem sine --rtol 1e-8 --repeat 3
    done
  done
  echo "round $round done $(date +%T)" >> $R/session.log
done
for spec in "-k 1 -r 9" "-k 7 -r 6"; do
  name="q$(echo "$spec" | tr -d ' -')-mixed"
  KOKKOS_PROFILE_LIBRARY=build-cuda/perf/libtensormg-kernel-timer.so TENSORMG_KERNEL_TIMER_OUT=$R/timer/$name-table.txt \
    timeout 100 build-cuda/drivers/tensormg-poisson --dim 3 $spec --solver fmg --precision mixed --problem one --rtol 1e-9 > $R/timer/$name-timed.txt 2>&1
  echo "$name timed exit $?" >> $R/session.log
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
