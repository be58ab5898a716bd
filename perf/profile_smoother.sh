#!/usr/bin/env bash
# Nsight Compute on the vertex-patch smoother kernel: one launch per degree (default variant).
# Usage: bash perf/profile_smoother.sh <build dir> <out dir> <dim> <degrees...>
# Environment: DOFS (default 1e7), TPP (threads per patch: auto, interior, closure or a number),
# PRECISION (default double).
build="$1"; out="$2"; dim="$3"; shift 3
for k in "$@"; do
  bench=("$build/perf/tensormg-bench-multigrid" --study smoother --dims "$dim" --degrees "$k" --dofs "${DOFS:-1e7}" --precisions "${PRECISION:-double}" --repeats 1
         --threads-per-patch "${TPP:-auto}")
  ncu --kernel-name-base demangled --kernel-name regex:VertexPatch.*Kernel --launch-skip 4 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
      --section ComputeWorkloadAnalysis --section LaunchStats --section SourceCounters --section InstructionStats \
      --section SchedulerStats "${bench[@]}" > "$out/ncu-smoother-${dim}d-k$k.txt" 2>&1
  echo "ncu smoother ${dim}D k=$k: exit $?"
  grep -E "Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|L1/TEX Hit|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc|Block Size|Dynamic Shared|Local Memory|spill|Bank" "$out/ncu-smoother-${dim}d-k$k.txt" | head -30
  # Stall reasons per issued instruction and the executed instruction mix (separate run: a metric
  # name this ncu does not know must not cost the sections above).
  ncu --kernel-name-base demangled --kernel-name regex:VertexPatch.*Kernel --launch-skip 4 --launch-count 1 \
      --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,sass__inst_executed_per_opcode" \
      --print-metric-instances values "${bench[@]}" > "$out/ncu-smoother-stalls-${dim}d-k$k.txt" 2>&1
  echo "ncu smoother stalls ${dim}D k=$k: exit $?"
done
