#!/usr/bin/env bash
# Device call g12 (2026-12-06, session 63): the multigrid iteration's outer loop in fewer sweeps
# (cycle_until_converged: one-precision x <- V(x, b); mixed: ||b - Ax|| without storing, the scaled
# residual rounded once into float, x += s e in the conversion's sweep) against bc95e31's binary,
# two rounds alternating, same machine: FMG to 1e-9 (continuous, f = 1) and to 1e-8 (DG, sine),
# double and mixed; V-cycle iteration; Cuda test_core, test_multigrid, test_dg_multigrid, memcheck
# of the new tests.
set -u
R=$OUT/r; mkdir -p $R/solves
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
T=build-cuda/tests/test_core
timeout 120 $T --gtest_filter='*/Cuda.*' > $R/test_core.txt 2>&1
echo "test_core exit $? $(grep -a -E 'PASSED|FAILED' $R/test_core.txt | tail -2 | tr '\n' ' ')" > $R/session.log
timeout 200 compute-sanitizer --tool memcheck --print-limit 1000 --error-exitcode 9 $T --gtest_filter='VectorSweeps/Cuda.*' > $R/memcheck-test_core.txt 2>&1
echo "memcheck test_core VectorSweeps exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/memcheck-test_core.txt)" >> $R/session.log
for t in test_multigrid test_dg_multigrid; do
  timeout 300 build-cuda/tests/$t --gtest_filter='*/Cuda.*' > $R/$t.txt 2>&1
  echo "$t exit $? $(grep -a -E 'PASSED|FAILED' $R/$t.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
  timeout 200 compute-sanitizer --tool memcheck --print-limit 1000 --error-exitcode 9 build-cuda/tests/$t --gtest_filter='*/Cuda.CycleOnTheIterate*' > $R/memcheck-$t.txt 2>&1
  echo "memcheck $t CycleOnTheIterate exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/memcheck-$t.txt)" >> $R/session.log
done
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 100 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}')" >> $R/solves.txt
}
for round in a b; do
  for bin in base new; do
    [ $bin = base ] && P=build-cuda/drivers/tensormg-poisson-base || P=build-cuda/drivers/tensormg-poisson
    for spec in "-k 1 -r 9" "-k 3 -r 7" "-k 7 -r 6"; do
      for prec in double mixed; do
        run "cg$(echo "$spec" | tr -d ' -')-fmg-$prec-$bin-$round" $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
      done
      run "cg$(echo "$spec" | tr -d ' -')-vcycle-mixed-$bin-$round" $P --dim 3 $spec --solver vcycle --precision mixed --problem one --rtol 1e-9 --repeat 3
    done
    for spec in "-k 3 -r 6" "-k 7 --cells 3 -r 4"; do
      for prec in double mixed; do
        run "dg$(echo "$spec" | tr -d ' -')-fmg-$prec-$bin-$round" $P --discretization dg --dim 3 $spec --solver fmg --precision $prec --problem sine --rtol 1e-8 --repeat 3
      done
    done
  done
  echo "round $round done $(date +%T)" >> $R/session.log
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
