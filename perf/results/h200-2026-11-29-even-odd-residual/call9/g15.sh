#!/usr/bin/env bash
# Device call g15 (2026-11-29): time to solution with this stop's kernels (build-p, 73734b4:
# tensormg-poisson), setup included, and the cuSPARSE CG + Jacobi anchor (CuPy) on the same 3D Q2
# mesh in the same call.
set -u
R=$OUT/r; mkdir -p $R
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g15.tar.xz
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
P=build-p/drivers/tensormg-poisson
stamp anchor
(cd .device && timeout 120 python3 cg_anchor.py 3 2 96) > $R/cg_anchor-3-2-96.txt 2>&1; echo "anchor exit $? $(tail -2 $R/cg_anchor-3-2-96.txt | tr '\n' '|')" >> $R/session.log
for spec in "fmg --precision double" "fmg --precision mixed" "cg --preconditioner jacobi" "cg --preconditioner mg --precision mixed"; do
  name="q2-96-$(echo "$spec" | tr -d ' -')"
  timeout 60 $P --dim 3 -k 2 --cells 3 -r 5 --solver $spec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
  echo "$name exit $? | $(grep -E '^  (DoFs|iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
done
(cd .device && timeout 120 python3 cg_anchor.py 3 2 96) > $R/cg_anchor-3-2-96-again.txt 2>&1; echo "anchor again exit $? $(tail -2 $R/cg_anchor-3-2-96-again.txt | tr '\n' '|')" >> $R/session.log
stamp solves
for spec in "-k 7 --cells 3 -r 5" "-k 3 --cells 3 -r 6" "-k 1 --cells 3 -r 8"; do
  for prec in mixed double; do
    name="poisson-$(echo "$spec" | tr -d ' -')-$prec"
    timeout 90 $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
    echo "$name exit $? | $(grep -E '^  (DoFs|iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
  done
done
timeout 90 $P --dim 3 -k 7 --cells 3 -r 5 --solver fmg --precision mixed --problem sine --rtol 1e-9 --record $R/poisson-k7cells3r5-mixed-sine.json --overwrite > $R/poisson-k7cells3r5-mixed-sine.txt 2>&1; echo "sine exit $? | $(grep -E 'L2|solve time' $R/poisson-k7cells3r5-mixed-sine.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
