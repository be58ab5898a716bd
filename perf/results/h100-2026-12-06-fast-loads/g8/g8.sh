#!/usr/bin/env bash
# Device call g8 (2026-12-06): which degrees' FMG (mixed) and V-cycle (float) converge with
# --contraction f16ec (g7: FMG mixed f16ec at 3D k = 6 stagnated, exit 3); lines beside them.
set -u
R=$OUT/r; mkdir -p $R/solves
for f in .device/*.tar.xz; do tar xJf $f; done
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
P=build-cuda/drivers/tensormg-poisson
for spec in "-k 3 -r 5" "-k 4 -r 5" "-k 5 -r 5" "-k 6 -r 4" "-k 6 -r 5" "-k 7 -r 4"; do
  for solve in "--solver fmg --precision mixed --contraction f16ec" "--solver fmg --precision mixed --contraction lines" \
               "--solver fmg --precision mixed --contraction blocks" \
               "--solver vcycle --precision float --rtol 1e-5 --contraction f16ec" "--solver vcycle --precision float --rtol 1e-5 --contraction lines"; do
    name="dg-$(echo "$spec $solve" | tr -d ' -')"
    case "$solve" in *rtol*) extra="" ;; *) extra="--rtol 1e-8" ;; esac
    timeout 60 $P --discretization dg --dim 3 $spec $solve --problem sine $extra --max-iterations 200 > $R/solves/$name.txt 2>&1
    echo "$name exit $? | $(grep -E '^  DoFs' $R/solves/$name.txt | awk '{print $2}') DoFs | $(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  solve time' $R/solves/$name.txt | awk '{print " solve", $3}') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}') | $(grep -a -m1 -E 'error|not converged|stagnat' $R/solves/$name.txt)" >> $R/solves.txt
  done
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
