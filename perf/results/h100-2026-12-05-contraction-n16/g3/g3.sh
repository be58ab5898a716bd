#!/usr/bin/env bash
# Device call g3 (2026-12-05): the block-contraction benchmark at N = 8 and 16 (three buffers, the
# DG patch kernel's order; sm_90's m16n8k16 at N = 16) against the four-buffer N = 8 bench of
# c88b52e (build-old); Cuda tests of the DG patch kernel after its launch moved to
# dg_vertex_patch_launch.hpp and its tuning became rows, the block contractions, the split
# multi-rank tests (2 ranks on one GPU); memcheck and racecheck of the new bench kernels.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
for f in .device/*.tar.xz; do tar xJf $f; done
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H200*) C=.device/ceilings-h200.json ;; *) C=.device/ceilings-h100.json ;; esac
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; echo "ceilings $C"; cat .device/commit.txt; } > $R/env.txt 2>&1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=build-cuda/perf/tensormg-bench-contraction; O=build-old/perf/tensormg-bench-contraction
ALL="--precisions double,float --contractions portable,mma-f64,f16,f16ec --layouts plain,swizzled"
stamp sanitizers
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for tool in memcheck racecheck; do
  timeout 100 $CS --tool $tool $B --block-sizes 8,16 $ALL --dofs 3e4 --repeats 1 --warmup 0 > $L/$tool-bench.txt 2>&1
  echo "$tool bench exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/$tool-bench.txt | tail -1)" >> $R/session.log
done
stamp tests
timeout 150 build-cuda/tests/test_dg_vertex_patch --gtest_filter='*Cuda*' > $L/test_dg_vertex_patch.txt 2>&1
echo "test_dg_vertex_patch exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_dg_vertex_patch.txt | tr '\n' ' ')" >> $R/session.log
timeout 100 build-cuda/tests/test_core --gtest_filter='*Cuda*' > $L/test_core.txt 2>&1
echo "test_core exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_core.txt | tr '\n' ' ')" >> $R/session.log
timeout 120 mpiexec -n 2 --oversubscribe build-cuda/tests/test_multigrid_ranks --gtest_filter='*/Cuda.*:PatchWindow.*:HaloTransport.*' > $L/test_multigrid_ranks-np2.txt 2>&1
echo "test_multigrid_ranks np2 exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_multigrid_ranks-np2.txt | sort -u | tr '\n' ' ')" >> $R/session.log
stamp bench
for round in a b; do
  order="old new"; [ $round = b ] && order="new old"
  for v in $order; do
    if [ $v = old ]; then timeout 120 $O --dofs 1e6,1.6e7,1.34e8 $ALL --ceilings $C -o $R/bench-old-$round.json --overwrite > $L/bench-old-$round.txt 2>&1
    else timeout 150 $B --block-sizes 8,16 --dofs 1e6,1.6e7,1.34e8 $ALL --ceilings $C -o $R/bench-new-$round.json --overwrite > $L/bench-new-$round.txt 2>&1; fi
    echo "bench $v $round exit $?" >> $R/session.log
  done
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
