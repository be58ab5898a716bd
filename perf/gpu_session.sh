#!/usr/bin/env bash
# One GPU-machine session: environment facts, the CUDA ctest suite, compute-sanitizer, the
# ceilings program, and optionally the offline Kokkos bootstrap + full build there.
# Usage (from the repository root, CUDA build in build-cuda, results to $OUT or ./gpu-out):
#   bash perf/gpu_session.sh [--offline-build] [--no-tests] [--extra "<command>"]
set -uo pipefail
out="${OUT:-$PWD/gpu-out}"
mkdir -p "$out"
offline=0
tests=1
extra=""
while [ $# -gt 0 ]; do
  case "$1" in
    --offline-build) offline=1; shift ;;
    --no-tests) tests=0; shift ;;
    --extra) extra="$2"; shift 2 ;;
    *) echo "unknown argument $1"; exit 2 ;;
  esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{
  echo "pwd: $PWD"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv
  nproc; for l in liblapack.so.3 libhdf5_serial.so.103 libmpi.so.40 libgtest; do ldconfig -p | grep -m1 "$l" || echo "missing $l"; done
} > "$out/env.txt" 2>&1
cat "$out/env.txt"
# CTest files name the build machine's absolute paths: make them valid here.
built_at=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build-cuda/CMakeCache.txt 2>/dev/null)
if [ -n "$built_at" ] && [ "$built_at" != "$PWD" ] && [ ! -e "$built_at" ]; then
  mkdir -p "$(dirname "$built_at")" && ln -s "$PWD" "$built_at"
fi
if [ "$tests" = 1 ]; then
  (cd build-cuda && ctest -E headers -LE install --output-on-failure -j4 --timeout 600) > "$out/ctest.log" 2>&1
  echo "ctest exit $?"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest.log"
  for name in ${SANITIZE:-test_core test_laplace_operator test_krylov}; do
    t=build-cuda/tests/$name
    [ -x "$t" ] || continue
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$t" --gtest_filter='*/Cuda.*' > "$out/sanitizer-$(basename "$t")-$tool.log" 2>&1
      echo "compute-sanitizer $tool $(basename "$t"): exit $? $(grep -m1 'ERROR SUMMARY' "$out/sanitizer-$(basename "$t")-$tool.log")"
    done
  done
  build-cuda/perf/tensormg-ceilings --output "$out/ceilings.json" --overwrite > "$out/ceilings.log" 2>&1
  echo "ceilings exit $?"; grep -A12 '"ceilings"' "$out/ceilings.json"
fi
if [ "$offline" = 1 ]; then
  start=$(date +%s)
  (bash cmake/bootstrap-kokkos.sh --backend cuda --arch HOPPER90 --prefix /tmp/kokkos-offline --jobs 16 \
   && cmake -S . -B /tmp/build-offline -DKokkos_ROOT=/tmp/kokkos-offline -DCMAKE_CXX_COMPILER=/tmp/kokkos-offline/bin/nvcc_wrapper \
        -DTENSORMG_CLI11_INCLUDE_DIR=$PWD/.deps/cli11/include \
   && cmake --build /tmp/build-offline -j16 && (cd /tmp/build-offline && ctest -E headers -LE install -j4 --output-on-failure)) \
   > "$out/offline-build.log" 2>&1
  echo "offline bootstrap+build+ctest exit $? in $(( $(date +%s) - start )) s"; grep -E "tests passed|error" "$out/offline-build.log" | head
fi
if [ -n "$extra" ]; then eval "$extra"; fi
