#!/usr/bin/env bash
# Device call g13 (2026-11-29): Nsight Compute of the final vertex-patch kernel (build-g, 47b0fb8),
# 3D FP64 k = 3, 6, 7 (perf/profile_smoother.sh, 1e7 DoFs): what holds the step below 35% of FMA.
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/g12.tar.xz build-g
export PATH=$PATH:$(dirname $(ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1) 2>/dev/null)
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; which ncu; } > $R/env.txt 2>&1
timeout 500 bash perf/profile_smoother.sh build-g $R 3 3 6 7 > $R/summary.txt 2>&1
cd $OUT && tar cJf r.tar.xz r && rm -rf r
