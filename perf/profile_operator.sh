#!/usr/bin/env bash
# Nsight Compute on the operator kernel: one launch per degree, the sections that say what limits it.
# Usage: bash perf/profile_operator.sh <build dir> <out dir> <dim> <degrees...>
# Environment: KERNEL (kernel-name regex, default CellOperatorKernel; LaplaceQ1Gather for the
# gathered Q1 operator), PRECISION (default double), DOFS (default 3e7).
build="$1"; out="$2"; dim="$3"; shift 3
for k in "$@"; do
  ncu --kernel-name-base demangled --kernel-name "regex:${KERNEL:-CellOperatorKernel}" --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
      --section ComputeWorkloadAnalysis --section LaunchStats --section InstructionStats --section SourceCounters \
      "$build/perf/tensormg-bench-operator" --dims "$dim" --degrees "$k" --dofs "${DOFS:-3e7}" --precisions "${PRECISION:-double}" --repeats 2 --spmv-max-gib 0 \
      > "$out/ncu-${dim}d-k$k.txt" 2>&1
  echo "ncu ${dim}D k=$k: exit $?"
  grep -E "Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Shared Memory Configuration Size|Block Limit|L1/TEX Hit|L2 Hit|Stall|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc" "$out/ncu-${dim}d-k$k.txt" | head -30
done
