# Sourced by the device session scripts (gpu_kernel_session.sh, gpu_multigrid_session.sh):
# strict mode, the output folder from $1 (shifted off), MPI as root, the GPU's facts in env.txt,
# and the H100 ceilings the benchmarks report against.
set -uo pipefail
out="$1"; shift
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > "$out/env.txt" 2>&1
ceil=perf/results/h100-2026-11-21/ceilings.json
