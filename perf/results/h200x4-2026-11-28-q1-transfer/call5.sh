#!/usr/bin/env bash
# Device call 5 (nvidia-h200-x4, lent again): issue 14. The Q1 by-node transfer on several ranks
# at 4 GPUs (the binary of 088b82f's code against c6c4187's, .device/bin/tensormg-poisson-before).
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$OUT/r; mkdir -p $R
tar xJf .device/bins.tar.xz
P=build-cuda/drivers/tensormg-poisson; B=.device/bin/tensormg-poisson-before; T=build-cuda/tests/test_multigrid_ranks
timeout 100 mpiexec -n 4 $T --gtest_filter='*/Cuda.*:HaloTransport.*' > $R/tests-gpus-np4.txt 2>&1
echo "tests np4 (one GPU per rank) exit $? | $(grep -m1 -E 'PASSED|FAILED' $R/tests-gpus-np4.txt)"
C="--dim 3 --precision double --rtol 1e-09 --restart 10"
w1="-k 1 --cells 5,5,5 -r 7"; w2="-k 1 --cells 10,5,5 -r 7 --upper 2,1,1"; w4="-k 1 --cells 10,10,5 -r 7 --upper 2,2,1"
s="-k 1 --cells 3,3,3 -r 8"
run() {  # run <name> <np> <binary> <args...>
  local name=$1 np=$2; shift 2
  timeout 60 mpiexec -n $np "$@" --record $R/$name.json --overwrite > $R/$name.txt 2>&1
  echo "$name exit $? | $(grep -E '^  (iterations|solve time|    transfer)' $R/$name.txt | tr -s ' ' | cut -c1-60 | tr '\n' '|')"
}
run weak-fmg-np1 1 $P $C $w1 --solver fmg --repeat 3
run weak-fmg-np2 2 $P $C $w2 --solver fmg --repeat 3
run weak-fmg-np4-before 4 $B $C $w4 --solver fmg --repeat 3
run weak-fmg-np4 4 $P $C $w4 --solver fmg --repeat 3
run weak-fmg-np4-timed 4 $P $C $w4 --solver fmg --mg-times
run weak-gmres-np1 1 $P $C $w1 --solver gmres --preconditioner mg --repeat 3
run weak-gmres-np4-before 4 $B $C $w4 --solver gmres --preconditioner mg --repeat 3
run weak-gmres-np4 4 $P $C $w4 --solver gmres --preconditioner mg --repeat 3
run strong-fmg-np1 1 $P $C $s --solver fmg --repeat 3
run strong-fmg-np4-before 4 $B $C $s --solver fmg --repeat 3
run strong-fmg-np4 4 $P $C $s --solver fmg --repeat 3
run strong-gmres-np1 1 $P $C $s --solver gmres --preconditioner mg --repeat 3
run strong-gmres-np4-before 4 $B $C $s --solver gmres --preconditioner mg --repeat 3
run strong-gmres-np4 4 $P $C $s --solver gmres --preconditioner mg --repeat 3
tar cJf $OUT/call5.tar.xz -C $OUT r && rm -rf $R
