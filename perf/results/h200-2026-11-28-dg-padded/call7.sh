#!/usr/bin/env bash
# Device call 7: padded blocks skip the tiles of padded planes (build-cuda) against the kernel
# that computes them (build-a = 0ec5535): Cuda tests and compute-sanitizer of the new build; one
# smoothing step k = 4..7 both builds, two rounds in alternating order; solves k = 5, 6 lines/auto.
set -u
R=$OUT/r; mkdir -p $R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/b7.tar.xz; tar xJf .device/a7.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
B=build-cuda; L=$R/logs; C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_core test_dg_vertex_patch test_dg_laplace; do
  timeout 150 $B/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" | tee -a $R/session.log
done
grep -E "Failure|FAILED" -A4 $L/test_*.txt | head -30 >> $R/session.log
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 100 $CS --tool memcheck $B/tests/test_core --gtest_filter='*Cuda.MatchesHostLoop' > $L/memcheck-core.txt 2>&1; echo "memcheck core exit $? $(tail -1 $L/memcheck-core.txt)" | tee -a $R/session.log
timeout 120 $CS --tool memcheck $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.PaddedBlock*:*Cuda.N16*' > $L/memcheck-dg.txt 2>&1; echo "memcheck dg exit $? $(tail -1 $L/memcheck-dg.txt)" | tee -a $R/session.log
timeout 150 $CS --tool racecheck $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.PaddedBlock*' > $L/racecheck-dg.txt 2>&1; echo "racecheck dg exit $? $(tail -1 $L/racecheck-dg.txt)" | tee -a $R/session.log
stamp smoother
for round in a b; do
  order="build-a build-cuda"; [ $round = b ] && order="build-cuda build-a"
  for v in $order; do
    timeout 100 $v/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 4,5,6,7 --dofs 3e7 --dg-contractions lines,blocks --precisions double --repeats 10 --ceilings $C -o $R/smoother-$v-$round.json > $L/smoother-$v-$round.txt 2>&1
    echo "smoother $v $round exit $?" | tee -a $R/session.log; grep -E "^  3" $L/smoother-$v-$round.txt | awk '{print $2, $4, $7, $11}' | tr '\n' ';' | tee -a $R/session.log; echo | tee -a $R/session.log
  done
done
stamp solves
for round in a b; do
  for k in 4 5 6; do
    for c in lines auto; do
      timeout 45 $B/drivers/tensormg-poisson --discretization dg --dim 3 -k $k -r 6 --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --contraction $c --record $R/solve-k$k-$c-$round.json > $L/solve-k$k-$c-$round.txt 2>&1
      echo "solve k=$k $c $round rc=$? $(grep -E 'solve time|L2 error|iterations' $L/solve-k$k-$c-$round.txt | tr -s ' ' | tr '\n' ';' | cut -c1-160)" | tee -a $R/session.log
    done
  done
done
stamp done
