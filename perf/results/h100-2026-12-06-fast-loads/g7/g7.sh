#!/usr/bin/env bash
# Device call g7 (2026-12-06): 3D k = 6, the float V-cycle on FP32 lines (auto) against error-corrected
# FP16 tensor cores (f16ec), mixed MG-FGMRES and FMG, double beside them; two rounds.
set -u
R=$OUT/r; mkdir -p $R/solves $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 565; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
P=build-cuda/drivers/tensormg-poisson
stamp solves
for round in a b; do
  for spec in "-k 6 --cells 3 -r 4" "-k 6 -r 5"; do
    for solve in "--solver gmres --preconditioner mg" "--solver fgmres --preconditioner mg --precision mixed" \
                 "--solver fgmres --preconditioner mg --precision mixed --contraction f16ec" \
                 "--solver fmg --precision mixed" "--solver fmg --precision mixed --contraction f16ec" "--solver fmg"; do
      name="$round-dg-mg-$(echo "$spec $solve" | tr -d ' -')"
      timeout 100 $P --discretization dg --dim 3 $spec $solve --problem sine --rtol 1e-8 --max-iterations 5000 > $R/solves/$name.txt 2>&1
      echo "$name exit $? | $(grep -E '^  DoFs' $R/solves/$name.txt | awk '{print $2}') DoFs | $(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  setup time' $R/solves/$name.txt | awk '{print " setup", $3}') |$(grep -E '^  solve time' $R/solves/$name.txt | awk '{print " solve", $3}') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}')" >> $R/solves.txt
    done
  done
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
