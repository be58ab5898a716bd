#!/usr/bin/env bash
# Device call (issue 18): low-order multigrid. Tests on Cuda (+ compute-sanitizer memcheck), then
# time to solution of CG + multigrid vs CG + Jacobi vs fused CG (matrix-free) vs CG + Jacobi
# (assembled), Laplace and elasticity, layered materials (contrast 1e3), ~1e6 and ~9e6 DoFs.
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R/logs $R/records
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; cat build-cuda/COMMIT; nproc; } > $R/env.txt 2>&1
B=build-cuda; L=$R/logs
PART=${1:-1}
if [ "$PART" = 1 ]; then
timeout 150 $B/tests/test_low_order_multigrid --gtest_filter='HexR*:*/Cuda.*' > $L/test_low_order_multigrid.txt 2>&1
echo "test_low_order_multigrid rc=$?" >> $R/log.txt; grep -hE "PASSED|FAILED|info" $L/test_low_order_multigrid.txt >> $R/log.txt
timeout 100 $B/tests/test_low_order --gtest_filter='*/Cuda.*' > $L/test_low_order.txt 2>&1
echo "test_low_order rc=$?" >> $R/log.txt; grep -hE "PASSED|FAILED" $L/test_low_order.txt >> $R/log.txt
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -n "$CS" ]; then
  timeout 150 $CS --tool memcheck --error-exitcode 9 $B/tests/test_low_order_multigrid \
      --gtest_filter='*/Cuda.Transfer*:*/Cuda.Chebyshev*:*/Cuda.OneRank*' > $L/sanitize-memcheck.txt 2>&1
  echo "sanitize memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/sanitize-memcheck.txt | tr '\n' ' ')" >> $R/log.txt
fi
# Elasticity kernel register cap (the same source compiled with -maxrregcount 128 / 168 / none):
# occupancy against spills, MF vs SpMV at 1e7 DoFs, same run.
CEIL=perf/results/h100-2026-11-25-bp/call3-prefetch/ceilings.json
for v in default r168 r128; do
  BIN=$B/perf/tensormg-bench-loworder; [ $v != default ] && BIN=$B/perf/tensormg-bench-loworder-$v
  timeout 100 $BIN --problems elasticity,laplace --dofs 1e7 --renumber --operators mf,spmv --geometry on-the-fly,stored \
      --scatter atomic --evaluation factorized --repeats 10 --cg-iterations 20 --ceilings $CEIL -o $R/regs-$v.json > $L/regs-$v.txt 2>&1
  echo "regs $v rc=$?" >> $R/log.txt; grep -vE "^ *$" $L/regs-$v.txt | tail -12 >> $R/log.txt
done
fi
LO=$B/drivers/tensormg-loworder
run() {  # name, timeout, args...
  local name=$1 t=$2; shift 2
  timeout $t $LO --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --max-iterations 20000 \
      --record $R/records/$name.json "$@" > $L/$name.txt 2>&1
  echo "$name rc=$? $(grep -E '^  (DoFs|iterations|setup time|solve time|multigrid) ' $L/$name.txt | sed 's/  */ /g' | tr '\n' ';')" >> $R/log.txt
}
L1="--problem laplace --cells 13 --refinements 3"
E1="--problem elasticity --dirichlet z=0 --cells 9 --refinements 3"
L2="--problem laplace --cells 13 --refinements 4"
E2="--problem elasticity --dirichlet z=0 --cells 9 --refinements 4"
if [ "$PART" = 1 ]; then
for p in L1 E1; do
  for d in 2 3 4 6; do run $p-mg$d 120 ${!p} --preconditioner multigrid --smoothing-degree $d; done
  run $p-jacobi 120 ${!p} --preconditioner jacobi
  run $p-none 120 ${!p} --preconditioner none
  run $p-assembled-jacobi 120 ${!p} --preconditioner jacobi --operator assembled
done
else
timeout 150 $B/tests/test_low_order_multigrid --gtest_filter='HexR*:*/Cuda.*' > $L/test_low_order_multigrid.txt 2>&1
echo "test_low_order_multigrid rc=$?" >> $R/log.txt; grep -hE "PASSED|FAILED|info" $L/test_low_order_multigrid.txt >> $R/log.txt
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
[ -n "$CS" ] && { timeout 100 $CS --tool memcheck --error-exitcode 9 $B/tests/test_low_order_multigrid \
      --gtest_filter='*/Cuda.Dense*' > $L/sanitize-memcheck-dense.txt 2>&1
  echo "sanitize memcheck dense rc=$? $(grep -E 'ERROR SUMMARY' $L/sanitize-memcheck-dense.txt | tr '\n' ' ')" >> $R/log.txt; }
for p in L1 E1; do
  run $p-mg4-dense 120 ${!p} --preconditioner multigrid --smoothing-degree 4 --coarse-solver dense
  run $p-mg4-cg 120 ${!p} --preconditioner multigrid --smoothing-degree 4 --coarse-solver cg
  run $p-mg6-dense 120 ${!p} --preconditioner multigrid --smoothing-degree 6 --coarse-solver dense
done
for p in L2 E2; do
  run $p-mg4 150 ${!p} --preconditioner multigrid --smoothing-degree 4
  run $p-jacobi 150 ${!p} --preconditioner jacobi
  run $p-none 150 ${!p} --preconditioner none
done
run L2-assembled-jacobi 150 $L2 --preconditioner jacobi --operator assembled
fi
tar czf $R/logs.tgz -C $R logs records && rm -rf $R/logs $R/records
echo done >> $R/log.txt
