#!/usr/bin/env bash
# Device call g3 (2026-12-02, session 4): the low-order set-up once more (commit in commit.txt:
# the whole-boundary Dirichlet set from the listed faces of the brick), Laplace and elasticity
# CG + multigrid at 9.1e6 DoFs, two runs each; CUDA low-order tests.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g3.tar.xz
B=build-g
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp loworder
for round in a b; do
  timeout 90 $B/drivers/tensormg-loworder --problem laplace --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --max-iterations 20000 --cells 13 --refinements 4 --preconditioner multigrid > $L/lo-laplace-mg-9e6-$round.txt 2>&1
  echo "loworder laplace $round exit $?" >> $R/session.log
  timeout 90 $B/drivers/tensormg-loworder --problem elasticity --dirichlet z=0 --material layered --contrast 1e3 --layers 4 --rtol 1e-8 --max-iterations 20000 --cells 9 --refinements 4 --preconditioner multigrid > $L/lo-elasticity-mg-9e6-$round.txt 2>&1
  echo "loworder elasticity $round exit $?" >> $R/session.log
done
stamp tests
for t in test_low_order_multigrid test_low_order; do
  timeout 150 $B/tests/$t --gtest_filter='*Cuda*:LowOrderOptions*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
