#!/usr/bin/env bash
# Device call 2: FGMRES + one V-cycle (paper 001 §7 set-up), 3D DG, lines vs blocks: build-a
# (805ec4e: padded blocks, four buffers, 512 x 1) against build-cuda (final: three buffers, two
# teams of 256 per SM, tuning k = 3, 5, 6, 7); test_dg_laplace of the final build.
set -u
R=$OUT/r; mkdir -p $R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/b2.tar.xz; tar xJf .device/a2.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
L=$R/logs
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 120 build-cuda/tests/test_dg_laplace --gtest_filter='*Cuda*' > $L/test_dg_laplace.txt 2>&1
echo "test_dg_laplace exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_dg_laplace.txt | tr '\n' ' ')" | tee -a $R/session.log
stamp solves
solve() { # build k r contraction round [extra]
  local v=$1 k=$2 r=$3 c=$4 round=$5; shift 5
  timeout 60 $v/drivers/tensormg-poisson --discretization dg --dim 3 -k $k -r $r --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --precision double --contraction $c --record $R/solve-$v-k$k-$c-$round.json "$@" > $L/solve-$v-k$k-$c-$round.txt 2>&1
  echo "solve $v k=$k r=$r $c $round rc=$? $(grep -E 'solve time|L2 error|iterations|contraction' $L/solve-$v-k$k-$c-$round.txt | tr -s ' ' | tr '\n' ';')" | tee -a $R/session.log
}
for round in a b; do
  for k in 4 5 6; do
    solve build-cuda $k 6 lines $round
    solve build-a $k 6 blocks $round
    solve build-cuda $k 6 blocks $round
    solve build-cuda $k 6 auto $round
  done
  solve build-cuda 7 6 lines $round --restart 10
  solve build-a 7 6 blocks $round --restart 10
  solve build-cuda 7 6 blocks $round --restart 10
  solve build-a 3 7 blocks $round
  solve build-cuda 3 7 blocks $round
done
stamp done
