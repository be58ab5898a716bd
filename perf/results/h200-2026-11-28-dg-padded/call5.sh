#!/usr/bin/env bash
# Device call 5: the final kernel (three buffers, 384-thread teams for blocks of 16, tuning
# k = 3, 5, 6, 7): Cuda tests, one smoothing step lines vs blocks, FGMRES + V-cycle lines vs auto.
set -u
R=$OUT/r; mkdir -p $R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/b5.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=build-cuda; L=$R/logs; C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_core test_dg_vertex_patch test_dg_laplace test_dg_multigrid; do
  timeout 150 $B/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" | tee -a $R/session.log
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 120 $CS --tool memcheck $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.PaddedBlock*:*Cuda.N16*' > $L/memcheck-dg.txt 2>&1; echo "memcheck dg exit $? $(tail -1 $L/memcheck-dg.txt)" | tee -a $R/session.log
timeout 150 $CS --tool racecheck $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.PaddedBlock*:*Cuda.N16*' > $L/racecheck-dg.txt 2>&1; echo "racecheck dg exit $? $(tail -1 $L/racecheck-dg.txt)" | tee -a $R/session.log
stamp smoother
for round in a b; do
  timeout 120 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3,4,5,6,7 --dofs 3e7 --dg-contractions lines,blocks --precisions double --repeats 10 --ceilings $C -o $R/smoother-$round.json > $L/smoother-$round.txt 2>&1
  echo "smoother $round exit $?" | tee -a $R/session.log; grep -E "^  3" $L/smoother-$round.txt | awk '{print $2, $4, $7, $11, $14}' | tr '\n' ';' | tee -a $R/session.log; echo | tee -a $R/session.log
done
stamp solves
solve() { # k r contraction round [extra]
  local k=$1 r=$2 c=$3 round=$4; shift 4
  timeout 60 $B/drivers/tensormg-poisson --discretization dg --dim 3 -k $k -r $r --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --precision double --contraction $c --record $R/solve-k$k-$c-$round.json "$@" > $L/solve-k$k-$c-$round.txt 2>&1
  echo "solve k=$k r=$r $c $round rc=$? $(grep -E 'solve time|L2 error|iterations' $L/solve-k$k-$c-$round.txt | tr -s ' ' | tr '\n' ';')" | tee -a $R/session.log
}
for round in a b; do
  for k in 5 6; do solve $k 6 lines $round; solve $k 6 auto $round; done
  solve 7 6 lines $round --restart 10; solve 7 6 auto $round --restart 10
done
stamp done
