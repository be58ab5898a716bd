#!/usr/bin/env bash
# Device call 4: the final defaults (auto = tensor-core blocks for FP64 3D k = 3 and 7).
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R/logs
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; cat build-cuda/COMMIT; } > $R/env.txt 2>&1
B=build-cuda; P=$B/drivers/tensormg-poisson; L=$R/logs
for t in test_core test_dg_vertex_patch test_dg_laplace test_dg_multigrid; do
  timeout 200 $B/tests/$t --gtest_filter='*/Cuda.*' > $L/$t.txt 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' $L/$t.txt | head -2 | tr '\n' ' ')" >> $R/log.txt
done
timeout 150 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3,7 --dofs 3e7 --dg-contractions auto,lines --precisions double --repeats 10 -o $R/smoother.json > $L/smoother.txt 2>&1
echo "smoother rc=$?" >> $R/log.txt; grep -E "^  3" $L/smoother.txt >> $R/log.txt
for v in "q3 3 7" "q7 7 6"; do set -- $v; for c in auto lines; do
  timeout 90 $P --discretization dg --dim 3 -k $2 -r $3 --restart 10 --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --contraction $c > $L/solve-$1-$c.txt 2>&1
  echo "solve $1 $c rc=$? $(grep -E 'solve time|L2 error|^  iterations|multigrid levels' $L/solve-$1-$c.txt | tr -s ' ' | tr '\n' ';')" >> $R/log.txt
done; done
echo done >> $R/log.txt
