#!/usr/bin/env bash
# Device call g4 (2026-12-05): the block-contraction benchmark with three and four scratch buffers
# at N = 8 and 16, two rounds (call g3: three buffers cost the N = 8 tensor-core kernels up to
# 0.6x against the four of c88b52e); memcheck and racecheck of both buffer counts.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
for f in .device/*.tar.xz; do tar xJf $f; done
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H200*) C=.device/ceilings-h200.json ;; *) C=.device/ceilings-h100.json ;; esac
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; echo "ceilings $C"; cat .device/commit.txt; } > $R/env.txt 2>&1
B=build-cuda/perf/tensormg-bench-contraction
ALL="--precisions double,float --contractions portable,mma-f64,f16,f16ec --layouts plain,swizzled"
stamp sanitizers
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for tool in memcheck racecheck; do
  timeout 100 $CS --tool $tool $B --block-sizes 8,16 --buffers 3,4 $ALL --dofs 3e4 --repeats 1 --warmup 0 > $L/$tool-bench.txt 2>&1
  echo "$tool bench exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/$tool-bench.txt | tail -1)" >> $R/session.log
done
stamp bench
for round in a b; do
  timeout 200 $B --block-sizes 8,16 --buffers 3,4 --dofs 1e6,1.6e7,1.34e8 $ALL --ceilings $C -o $R/bench-$round.json --overwrite > $L/bench-$round.txt 2>&1
  echo "bench $round exit $?" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
