#!/usr/bin/env bash
# Device call f4 (2026-11-29): Nsight Compute of the DG block kernel at 3D k = 7 (d1c7fa5, the
# binaries of f3): FP64 m16n8k16 blocks and float FP16 EC blocks, one launch each (a colour of the
# Dirichlet step), sections and stall reasons.
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/f3.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" > $R/session.log
B=build-cuda/perf/tensormg-bench-multigrid
for v in "fp64 double blocks" "f16ec float f16ec" "f16 float f16"; do
  set -- $v
  bench=($B --study dg-smoother --dims 3 --degrees 7 --dofs 3e7 --dg-contractions $3 --precisions $2 --repeats 1)
  timeout 200 $NCU --kernel-name-base demangled --kernel-name regex:DgPatchBlockKernel --launch-skip 8 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    --section ComputeWorkloadAnalysis --section LaunchStats --section InstructionStats --section SchedulerStats \
    "${bench[@]}" > $R/ncu-$1.txt 2>&1
  echo "ncu $1 exit $?" >> $R/session.log
  grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Size|Shared Memory Configuration|Dynamic Shared|Warp Cycles Per Issued|Issue Slots Busy|Local Memory|Bank|Block Limit" $R/ncu-$1.txt | head -30 >> $R/session.log
  timeout 200 $NCU --kernel-name-base demangled --kernel-name regex:DgPatchBlockKernel --launch-skip 8 --launch-count 1 \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,local_load_spill,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active" \
    "${bench[@]}" > $R/ncu-stalls-$1.txt 2>&1
  echo "ncu stalls $1 exit $?" >> $R/session.log
done
