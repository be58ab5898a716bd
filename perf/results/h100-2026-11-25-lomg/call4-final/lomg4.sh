#!/usr/bin/env bash
# Device call 4 (issue 18), final binaries: tests on Cuda, then time to solution of CG + multigrid
# (Chebyshev degree 4, dense coarse inverse) vs CG + Jacobi vs fused CG (matrix-free) vs CG + Jacobi
# (assembled), Laplace and elasticity, layered materials (contrast 1e3), ~1.2e6 and ~9.1e6 DoFs.
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R/logs $R/records
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; cat build-cuda/COMMIT; nproc; } > $R/env.txt 2>&1
B=build-cuda; L=$R/logs
for t in test_low_order test_low_order_multigrid; do
  timeout 150 $B/tests/$t --gtest_filter='HexR*:*/Cuda.*' > $L/$t.txt 2>&1
  echo "$t rc=$?" >> $R/log.txt; grep -hE "PASSED|FAILED|info" $L/$t.txt >> $R/log.txt
done
LO=$B/drivers/tensormg-loworder
run() {  # name, timeout, args...
  local name=$1 t=$2; shift 2
  timeout $t $LO --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --max-iterations 20000 \
      --record $R/records/$name.json "$@" > $L/$name.txt 2>&1
  echo "$name rc=$? $(grep -E '^  (DoFs|iterations|setup time|solve time|multigrid) |^    ' $L/$name.txt | sed 's/  */ /g' | tr '\n' ';')" >> $R/log.txt
}
L1="--problem laplace --cells 13 --refinements 3"
E1="--problem elasticity --dirichlet z=0 --cells 9 --refinements 3"
L2="--problem laplace --cells 13 --refinements 4"
E2="--problem elasticity --dirichlet z=0 --cells 9 --refinements 4"
for p in L1 E1 L2 E2; do
  run $p-mg4 150 ${!p} --preconditioner multigrid
  run $p-jacobi 150 ${!p} --preconditioner jacobi
  run $p-none 150 ${!p} --preconditioner none
done
run L1-assembled-jacobi 150 $L1 --preconditioner jacobi --operator assembled
run E1-assembled-jacobi 150 $E1 --preconditioner jacobi --operator assembled
run L2-assembled-jacobi 150 $L2 --preconditioner jacobi --operator assembled
tar czf $R/logs.tgz -C $R logs records && rm -rf $R/logs $R/records
echo done >> $R/log.txt
