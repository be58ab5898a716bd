#!/usr/bin/env bash
# A device session for the multigrid issue: CUDA ctest, compute-sanitizer on the smoother and
# multigrid tests, then benchmark parts (perf/run_multigrid_benchmarks.sh), each under a time cap.
# Usage (repository root, CUDA build in build-cuda): bash perf/gpu_multigrid_session.sh <out> [--tests] [parts...]
source "$(dirname "$0")/session_setup.sh"
for part in "$@"; do
  if [ "$part" = "--tests" ]; then
    (cd build-cuda && timeout 300 ctest -E headers -LE install --output-on-failure -j4 --timeout 280) > "$out/ctest.log" 2>&1
    echo "ctest exit $?"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest.log"
    FILTER='*/Cuda.Restriction*:*/Cuda.Prolongation*:*/Cuda.CoarseSolve*:*/Cuda.VCycleIsSymmetric' \
      SANITIZE_TIMEOUT=150 bash perf/sanitize.sh build-cuda "$out" test_multigrid
    FILTER='*/Cuda.OneStepMatchesSequentialAlgorithm2D:*/Cuda.ThreadsPerPatch*:*/Cuda.Helmholtz*:*/Cuda.SinglePatch*:*/Cuda.Q7*:*/Cuda.Float*' \
      SANITIZE_TIMEOUT=150 bash perf/sanitize.sh build-cuda "$out" test_vertex_patch
  else
    timeout "${PART_TIMEOUT:-300}" bash perf/run_multigrid_benchmarks.sh build-cuda "$out" "$ceil" "$part" > "$out/part-$part.log" 2>&1
    echo "part $part exit $?"; tail -n 4 "$out/part-$part.log"
  fi
done
