#!/usr/bin/env bash
# Device call g11 (2026-12-06, session 63): (1) g10: the mixed correction cycles on the residual
# scaled to 2-norm one (bc95e31), FMG mixed with FP16 products at 3D k = 3..7 and the default
# (f16ec at k = 7), Cuda test_dg_multigrid; (2) continuous FMG to 1e-9, f = 1, Q1/Q3/Q7 at the
# fmg study's largest sizes, double and mixed, untimed (median of 3) and with --mg-times (where a
# mixed cycle's time goes: the float V-cycle's components vs the double outer loop).
set -u
R=$OUT/r; mkdir -p $R/solves $R/fmg
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
P=build-cuda/drivers/tensormg-poisson
timeout 200 build-cuda/tests/test_dg_multigrid --gtest_filter='*Cuda*' > $R/test_dg_multigrid.txt 2>&1
echo "test_dg_multigrid exit $? $(grep -a -E 'PASSED|FAILED' $R/test_dg_multigrid.txt | tail -2 | tr '\n' ' ')" > $R/session.log
for spec in "-k 3 -r 5" "-k 4 -r 5" "-k 5 -r 5" "-k 6 -r 4" "-k 6 -r 5" "-k 7 -r 4" "-k 6 --cells 3 -r 4" "-k 7 --cells 3 -r 4"; do
  for solve in "--solver fmg --precision mixed --contraction f16ec" "--solver fmg --precision mixed --contraction lines" \
               "--solver fmg --precision mixed" "--solver fmg"; do
    name="dg-$(echo "$spec $solve" | tr -d ' -')"
    timeout 60 $P --discretization dg --dim 3 $spec $solve --problem sine --rtol 1e-8 --max-iterations 200 > $R/solves/$name.txt 2>&1
    echo "$name exit $? | $(grep -E '^  DoFs' $R/solves/$name.txt | awk '{print $2}') DoFs | $(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  solve time' $R/solves/$name.txt | awk '{print " solve", $3}') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}') | $(grep -a -m1 -E 'error|not converged|stagnat' $R/solves/$name.txt)" >> $R/solves.txt
  done
done
echo "dg solves done $(date +%T)" >> $R/session.log
for spec in "-k 1 -r 9" "-k 3 -r 7" "-k 7 -r 6"; do
  for prec in double mixed; do
    name="q$(echo "$spec" | tr -d ' -')-$prec"
    timeout 100 $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3 > $R/fmg/$name.txt 2>&1
    echo "$name exit $?" >> $R/session.log
    timeout 100 $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --mg-times > $R/fmg/$name-times.txt 2>&1
    echo "$name-times exit $?" >> $R/session.log
  done
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
