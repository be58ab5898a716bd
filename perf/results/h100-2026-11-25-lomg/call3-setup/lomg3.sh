#!/usr/bin/env bash
# Device call 3 (issue 18): set-up after the parallel Jacobian check, the flat refinement table and
# the device load; tests on Cuda (the device load against the host quadrature).
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R/logs $R/records
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; cat build-cuda/COMMIT; nproc; } > $R/env.txt 2>&1
B=build-cuda; L=$R/logs
for t in test_low_order test_low_order_multigrid; do
  timeout 150 $B/tests/$t --gtest_filter='HexR*:*/Cuda.*' > $L/$t.txt 2>&1
  echo "$t rc=$?" >> $R/log.txt; grep -hE "PASSED|FAILED" $L/$t.txt >> $R/log.txt
done
LO=$B/drivers/tensormg-loworder
run() {  # name, timeout, args...
  local name=$1 t=$2; shift 2
  timeout $t $LO --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --max-iterations 20000 \
      --record $R/records/$name.json "$@" > $L/$name.txt 2>&1
  echo "$name rc=$? $(grep -E '^  (DoFs|iterations|setup time|solve time|multigrid) |^    ' $L/$name.txt | sed 's/  */ /g' | tr '\n' ';')" >> $R/log.txt
}
L2="--problem laplace --cells 13 --refinements 4"
E2="--problem elasticity --dirichlet z=0 --cells 9 --refinements 4"
run L2-mg4 150 $L2 --preconditioner multigrid
run E2-mg4 150 $E2 --preconditioner multigrid
run L2-jacobi 150 $L2 --preconditioner jacobi
tar czf $R/logs.tgz -C $R logs records && rm -rf $R/logs $R/records
echo done >> $R/log.txt
