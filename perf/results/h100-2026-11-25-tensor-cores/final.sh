#!/usr/bin/env bash
# Device call: the final commit's defaults (auto = tensor-core blocks for FP64 3D k = 3).
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; cat build-cuda/COMMIT; } > $R/env.txt 2>&1
B=build-cuda; P=$B/drivers/tensormg-poisson
for t in test_core test_dg_vertex_patch test_dg_laplace; do timeout 200 $B/tests/$t --gtest_filter='*/Cuda.*' > $R/$t.txt 2>&1; echo "$t rc=$?" >> $R/log.txt; done
[ -x $B/tests/test_tuning_tables ] && { timeout 60 $B/tests/test_tuning_tables > $R/test_tuning_tables.txt 2>&1; echo "test_tuning_tables rc=$?" >> $R/log.txt; }
for round in 1 2; do for c in auto lines; do
  timeout 60 $P --discretization dg --dim 3 -k 3 -r 7 --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --contraction $c > $R/solve-$c-$round.txt 2>&1
  echo "solve $c $round rc=$? $(grep -E 'solve time|L2 error|^  iterations' $R/solve-$c-$round.txt | tr -s ' ' | tr '\n' ';')" >> $R/log.txt
done; done
timeout 90 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3 --dofs 1.6e7 --dg-contractions auto,lines,blocks --precisions double --repeats 10 > $R/smoother.txt 2>&1
grep -E "PASSED|FAILED" $R/test_*.txt >> $R/log.txt
grep -E "^  3" $R/smoother.txt >> $R/log.txt
