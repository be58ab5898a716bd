#!/usr/bin/env bash
# Device call g4 (2026-12-06): the committed rows (fast-scratch loads, generic stores; 30bb831)
# against generic, one binary, default contractions, two rounds; DG time to solution, double
# MG-GMRES against mixed MG-FGMRES and FMG double / mixed (issue 15's mixed target); Cuda DG tests.
set -u
R=$OUT/r; mkdir -p $R/logs $R/solves; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 565; cd $OUT && tar cJf r-partial.tar.xz r ) &  # the tool returns few loose files
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H200*) C=.device/ceilings-h200.json ;; *) C=.device/ceilings-h100.json ;; esac
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; echo "ceilings $C"; cat .device/commit.txt; } > $R/env.txt 2>&1
B=build-cuda/perf/tensormg-bench-multigrid
P=build-cuda/drivers/tensormg-poisson
stamp tests
for t in test_dg_vertex_patch test_dg_multigrid; do
  timeout 150 build-cuda/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -a -E 'PASSED|FAILED' $L/$t.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
done
stamp dg-smoother
for round in a b; do
  timeout 150 $B --study dg-smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --dg-scratch-pointers auto,generic --repeats 5 --ceilings $C -o $R/dg3-auto-$round.json --overwrite > $L/dg3-auto-$round.txt 2>&1
  echo "dg3 auto $round exit $?" >> $R/session.log
  timeout 120 $B --study dg-smoother --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 3e7 --precisions double,float --dg-scratch-pointers auto,generic --repeats 5 --ceilings $C -o $R/dg2-auto-$round.json --overwrite > $L/dg2-auto-$round.txt 2>&1
  echo "dg2 auto $round exit $?" >> $R/session.log
done
stamp solves
for spec in "-k 2 -r 7" "-k 3 -r 6" "-k 3 -r 7" "-k 5 -r 6" "-k 7 --cells 3 -r 4"; do
  for solve in "--solver gmres --preconditioner mg" "--solver fgmres --preconditioner mg --precision mixed" "--solver fmg" "--solver fmg --precision mixed"; do
    name="dg-mg-$(echo "$spec $solve" | tr -d ' -')"
    timeout 100 $P --discretization dg --dim 3 $spec $solve --problem sine --rtol 1e-8 --max-iterations 5000 > $R/solves/$name.txt 2>&1
    echo "$name exit $? | $(grep -E '^  DoFs' $R/solves/$name.txt | awk '{print $2}') DoFs | $(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  setup time' $R/solves/$name.txt | awk '{print " setup", $3}') |$(grep -E '^  solve time' $R/solves/$name.txt | awk '{print " solve", $3}') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}')" >> $R/solves.txt
  done
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
