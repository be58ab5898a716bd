#!/usr/bin/env bash
# Device call g1 (2026-12-06): DG patch kernels with fast-scratch pointers against generic ones
# (--dg-scratch-pointers generic,fast, same binary), two rounds; Cuda test_dg_vertex_patch and
# memcheck/racecheck of the new test; the block-contraction bench (compile-time scratch level)
# against c88b52e's bench (old-bench-contraction), two rounds; SASS memory-op counts of the DG kernels.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
for f in .device/*.tar.xz; do tar xJf $f; done
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H200*) C=.device/ceilings-h200.json ;; *) C=.device/ceilings-h100.json ;; esac
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; echo "ceilings $C"; cat .device/commit.txt; } > $R/env.txt 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
B=build-cuda/perf/tensormg-bench-multigrid
T=build-cuda/tests/test_dg_vertex_patch
ALL="--precisions double,float --contractions portable,mma-f64,f16,f16ec --layouts plain,swizzled"
stamp tests
timeout 150 $T --gtest_filter='*Cuda*' > $L/test_dg_vertex_patch.txt 2>&1
echo "test_dg_vertex_patch exit $? $(grep -a -E 'PASSED|FAILED' $L/test_dg_vertex_patch.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
stamp sass
OD=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
if [ -n "$OD" ]; then $OD -sass $B > /tmp/sass.txt 2>&1; python3 .device/sass_stats.py /tmp/sass.txt > $R/sass-dg-memory-ops.txt 2>&1; else echo "no cuobjdump" > $R/sass-dg-memory-ops.txt; fi
for round in a b; do
  stamp "dg3 $round"
  timeout 200 $B --study dg-smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --dg-scratch-pointers generic,fast --repeats 5 --ceilings $C -o $R/dg3-$round.json --overwrite > $L/dg3-$round.txt 2>&1
  echo "dg3 $round exit $?" >> $R/session.log
  stamp "contraction $round"
  timeout 50 build-cuda/perf/tensormg-bench-contraction --block-sizes 8,16 --buffers 3 --dofs 1.34e8 $ALL --ceilings $C -o $R/bench-new-$round.json --overwrite > $L/bench-new-$round.txt 2>&1
  echo "bench new $round exit $?" >> $R/session.log
  timeout 50 build-cuda/perf/old-bench-contraction --dofs 1.34e8 $ALL --ceilings $C -o $R/bench-old-$round.json --overwrite > $L/bench-old-$round.txt 2>&1
  echo "bench old $round exit $?" >> $R/session.log
done
stamp f16
timeout 80 $B --study dg-smoother --dims 3 --degrees 3,5,7 --dofs 3e7 --precisions float --dg-contractions f16,f16ec --dg-scratch-pointers generic,fast --repeats 5 --ceilings $C -o $R/dg3-f16.json --overwrite > $L/dg3-f16.txt 2>&1
echo "dg3 f16 exit $?" >> $R/session.log
stamp dg2
timeout 80 $B --study dg-smoother --dims 2 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double --dg-scratch-pointers generic,fast --repeats 5 --ceilings $C -o $R/dg2.json --overwrite > $L/dg2.txt 2>&1
echo "dg2 exit $?" >> $R/session.log
stamp sanitizers
for tool in memcheck racecheck; do
  timeout 80 $CS --tool $tool $T --gtest_filter='*Cuda*FastScratch*' > $L/$tool-fast-scratch.txt 2>&1
  echo "$tool FastScratch exit $? $(grep -a -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/$tool-fast-scratch.txt | tail -1)" >> $R/session.log
done
stamp done
