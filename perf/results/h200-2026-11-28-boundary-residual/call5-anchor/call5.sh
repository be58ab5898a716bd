#!/usr/bin/env bash
# Device call 5 (2026-11-28): time to solution against cuSPARSE CG + Jacobi (CuPy) on 3D Q2 96^3
# cells, with the current defaults (Boundary residual), side by side.
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/bins.tar.xz
P=build-cuda/drivers/tensormg-poisson
(cd .device && timeout 120 python3 cg_anchor.py 3 2 96) > $R/cg_anchor-3-2-96.txt 2>&1; echo "anchor exit $?"; tail -5 $R/cg_anchor-3-2-96.txt
for spec in "fmg --precision double" "fmg --precision mixed" "cg --preconditioner jacobi" "cg --preconditioner mg --precision mixed"; do
  name="q2-96-$(echo "$spec" | tr -d ' -')"
  timeout 60 $P --dim 3 -k 2 --cells 3 -r 5 --solver $spec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
  echo "$name exit $? | $(grep -E '^  (DoFs|iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')"
done
(cd .device && timeout 120 python3 cg_anchor.py 3 2 96) > $R/cg_anchor-3-2-96-again.txt 2>&1; echo "anchor again exit $?"; tail -3 $R/cg_anchor-3-2-96-again.txt
tar cJf $OUT/call5.tar.xz -C $OUT r && rm -rf $R
