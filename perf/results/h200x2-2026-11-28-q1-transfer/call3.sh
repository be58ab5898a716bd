#!/usr/bin/env bash
# Device call 3 (nvidia-h200-x2; the x4 kind was no longer lent): issue 14. The Q1 by-node transfer on several ranks (restriction
# sums the owned fine nodes, prolongation reads the coarse ghosts) against the binary of c6c4187
# (.device/bin/tensormg-poisson-before: by parent cell on several ranks); the rank tests.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$OUT/r; mkdir -p $R
tar xJf .device/bins.tar.xz
P=build-cuda/drivers/tensormg-poisson; B=.device/bin/tensormg-poisson-before; T=build-cuda/tests/test_multigrid_ranks
for np in 2 4; do  # 4 ranks: two per GPU
  timeout 100 mpiexec -n $np $T --gtest_filter='*/Cuda.*:HaloTransport.*' > $R/tests-np$np.txt 2>&1
  echo "tests np$np (2 GPUs) exit $? | $(grep -m1 -E 'PASSED|FAILED' $R/tests-np$np.txt)"
done
timeout 100 mpiexec -n 2 compute-sanitizer --tool memcheck --error-exitcode 9 $T \
  --gtest_filter='*/Cuda.TransfersEqualOneRank' > $R/memcheck-transfers-np2.log 2>&1
echo "memcheck transfers np2 exit $? | $(grep -c 'ERROR SUMMARY: 0 errors' $R/memcheck-transfers-np2.log) ranks clean"
C="--dim 3 --precision double --rtol 1e-09 --restart 10"
w1="-k 1 --cells 5,5,5 -r 7"; w2="-k 1 --cells 10,5,5 -r 7 --upper 2,1,1"; w4="-k 1 --cells 10,10,5 -r 7 --upper 2,2,1"
s="-k 1 --cells 3,3,3 -r 8"
run() {  # run <name> <np> <binary> <args...>
  local name=$1 np=$2; shift 2
  timeout 60 mpiexec -n $np "$@" --record $R/$name.json --overwrite > $R/$name.txt 2>&1
  echo "$name exit $? | $(grep -E '^  (iterations|setup time|solve time|    transfer)' $R/$name.txt | tr -s ' ' | cut -c1-70 | tr '\n' '|')"
}
run weak-fmg-np1 1 $P $C $w1 --solver fmg --repeat 3
run weak-fmg-np1-timed 1 $P $C $w1 --solver fmg --mg-times
run weak-fmg-np2-before 2 $B $C $w2 --solver fmg --repeat 3
run weak-fmg-np2 2 $P $C $w2 --solver fmg --repeat 3
run weak-fmg-np2-timed 2 $P $C $w2 --solver fmg --mg-times
run weak-fmg-np2-before-again 2 $B $C $w2 --solver fmg --repeat 3
run weak-gmres-np1 1 $P $C $w1 --solver gmres --preconditioner mg --repeat 3
run weak-gmres-np2-before 2 $B $C $w2 --solver gmres --preconditioner mg --repeat 3
run weak-gmres-np2 2 $P $C $w2 --solver gmres --preconditioner mg --repeat 3
run strong-fmg-np1 1 $P $C $s --solver fmg --repeat 3
run strong-fmg-np2-before 2 $B $C $s --solver fmg --repeat 3
run strong-fmg-np2 2 $P $C $s --solver fmg --repeat 3
run strong-gmres-np1 1 $P $C $s --solver gmres --preconditioner mg --repeat 3
run strong-gmres-np2-before 2 $B $C $s --solver gmres --preconditioner mg --repeat 3
run strong-gmres-np2 2 $P $C $s --solver gmres --preconditioner mg --repeat 3
tar cJf $OUT/call3.tar.xz -C $OUT r && rm -rf $R
