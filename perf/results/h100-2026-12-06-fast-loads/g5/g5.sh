#!/usr/bin/env bash
# Device call g5 (2026-12-06): DG time to solution, double MG-GMRES against mixed MG-FGMRES with
# the float V-cycle's patch contractions on FP32 CUDA cores (auto), FP16 tensor cores with error
# correction (f16ec) and without (f16); two rounds. Binaries of 30bb831 (g4's).
set -u
R=$OUT/r; mkdir -p $R/solves
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 565; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
P=build-cuda/drivers/tensormg-poisson
stamp solves
for round in a b; do
  for spec in "-k 2 -r 7" "-k 3 -r 6" "-k 3 -r 7" "-k 5 -r 6" "-k 7 --cells 3 -r 4"; do
    for solve in "--solver gmres --preconditioner mg" "--solver fgmres --preconditioner mg --precision mixed" \
                 "--solver fgmres --preconditioner mg --precision mixed --contraction f16ec" \
                 "--solver fgmres --preconditioner mg --precision mixed --contraction f16"; do
      case "$spec $solve" in *"-k 2"*f16*) continue ;; esac
      name="$round-dg-mg-$(echo "$spec $solve" | tr -d ' -')"
      timeout 100 $P --discretization dg --dim 3 $spec $solve --problem sine --rtol 1e-8 --max-iterations 5000 > $R/solves/$name.txt 2>&1
      echo "$name exit $? | $(grep -E '^  DoFs' $R/solves/$name.txt | awk '{print $2}') DoFs | $(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  setup time' $R/solves/$name.txt | awk '{print " setup", $3}') |$(grep -E '^  solve time' $R/solves/$name.txt | awk '{print " solve", $3}') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}')" >> $R/solves.txt
    done
  done
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
