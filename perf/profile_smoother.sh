#!/usr/bin/env bash
# Nsight Compute on the vertex-patch smoother kernel: one launch per degree (default variant).
# Usage: bash perf/profile_smoother.sh <build dir> <out dir> <dim> <degrees...>
build="$1"; out="$2"; dim="$3"; shift 3
for k in "$@"; do
  ncu --kernel-name-base demangled --kernel-name regex:VertexPatchKernel --launch-skip 4 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
      --section ComputeWorkloadAnalysis --section LaunchStats --section SourceCounters \
      "$build/perf/tensormg-bench-multigrid" --study smoother --dims "$dim" --degrees "$k" --dofs ${DOFS:-1e7} --repeats 1 \
      > "$out/ncu-smoother-${dim}d-k$k.txt" 2>&1
  echo "ncu smoother ${dim}D k=$k: exit $?"
  grep -E "Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|L1/TEX Hit|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc|Block Size|Dynamic Shared|Local Memory|spill|Bank" "$out/ncu-smoother-${dim}d-k$k.txt" | head -30
done
