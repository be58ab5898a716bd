#!/usr/bin/env bash
# Device call g18 (2026-12-06, session 63): the precision conversions (copy_converted_from: MG-FGMRES
# mixed converts at each preconditioner application; copy_scaled_converted_from: the FP16 cycle's
# scaled residual) as sweeps with loads in flight, against 4baac7f (-prev) in the same call, two
# rounds alternating: the g16/g17 solves; Cuda tests + memcheck of the vector sweeps.
set -u
R=$OUT/r; mkdir -p $R/solves
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
for t in test_core test_multigrid test_dg_multigrid; do
  timeout 300 build-cuda/tests/$t --gtest_filter='*/Cuda.*' > $R/$t.txt 2>&1
  echo "$t exit $? $(grep -a -E 'PASSED|FAILED' $R/$t.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
done
timeout 200 compute-sanitizer --tool memcheck --print-limit 1000 --error-exitcode 9 build-cuda/tests/test_core --gtest_filter='VectorSweeps/Cuda.*' > $R/memcheck-test_core.txt 2>&1
echo "memcheck test_core VectorSweeps exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/memcheck-test_core.txt)" >> $R/session.log
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 100 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}')" >> $R/solves.txt
}
for round in a b; do
  for bin in prev new; do
    [ $bin = new ] && P=build-cuda/drivers/tensormg-poisson || P=build-cuda/drivers/tensormg-poisson-$bin
    for spec in "-k 1 -r 9" "-k 3 -r 7" "-k 7 -r 6"; do
      for prec in double mixed; do
        run "cg$(echo "$spec" | tr -d ' -')-fmg-$prec-$bin-$round" $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
      done
    done
    run "cgk2cells96-cgjacobi-double-$bin-$round" $P --dim 3 -k 2 --cells 96 -r 0 --solver cg --preconditioner jacobi --problem one --rtol 1e-9 --repeat 3
    run "cgk3r7-gmresmg-double-$bin-$round" $P --dim 3 -k 3 -r 7 --solver gmres --preconditioner mg --problem one --rtol 1e-9 --repeat 3
    run "cgk3r7-fgmresmg-mixed-$bin-$round" $P --dim 3 -k 3 -r 7 --solver fgmres --preconditioner mg --precision mixed --problem one --rtol 1e-9 --repeat 3
    run "dgk7cells3r4-fmg-mixed-$bin-$round" $P --discretization dg --dim 3 -k 7 --cells 3 -r 4 --solver fmg --precision mixed --problem sine --rtol 1e-8 --repeat 3
  done
  echo "round $round done $(date +%T)" >> $R/session.log
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
