#!/usr/bin/env bash
# Device call g16 (2026-11-29): the L2 error of the Q7 sine solve (build-p, 73734b4), double and
# mixed, two sizes: where the 1.37e-12 of g15 sits against rounding.
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/g15.tar.xz
P=build-p/drivers/tensormg-poisson
for r in 4 5; do for prec in double mixed; do
  name="sine-k7r$r-$prec"
  timeout 90 $P --dim 3 -k 7 --cells 3 -r $r --solver fmg --precision $prec --problem sine --rtol 1e-9 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
  echo "$name exit $? | $(grep -E 'DoFs|iterations|L2|relative residual' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
  timeout 90 $P --dim 3 -k 7 --cells 3 -r $r --solver cg --preconditioner mg --precision $prec --problem sine --rtol 1e-12 --record $R/$name-cg12.json --overwrite > $R/$name-cg12.txt 2>&1
  echo "$name-cg12 exit $? | $(grep -E 'iterations|L2' $R/$name-cg12.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
done; done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
