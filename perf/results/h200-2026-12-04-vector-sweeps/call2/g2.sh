#!/usr/bin/env bash
# Device call g2 (2026-12-04, stop 53): the cuSPARSE CG + Jacobi anchor (g1's failed: spmv_anchor.py
# was not carried) beside tensormg-poisson (bdaa193) on the same problem, in one call.
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/g1.tar.xz
P=build-g2/tensormg-poisson-new
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/env.txt
for round in a b; do
  (cd .device && timeout 120 python3 cg_anchor.py 3 2 96) > $R/cg_anchor-3-2-96-$round.txt 2>&1; echo "anchor $round exit $?" >> $R/session.log
  for spec in "cg --preconditioner jacobi" "cg --preconditioner mg --precision mixed" "fmg --precision mixed"; do
    name="q2-96-$(echo "$spec" | tr -d ' -')-$round"
    timeout 60 $P --dim 3 -k 2 --cells 3 -r 5 --solver $spec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
    echo "$name exit $?" >> $R/session.log
  done
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
