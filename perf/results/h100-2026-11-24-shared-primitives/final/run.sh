# Device call of 2026-11-24: the kernel tests on the H100, compute-sanitizer on the new kernels, A/B.
set -uo pipefail
out="$OUT"; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
PART_TIMEOUT=10 bash perf/gpu_session.sh --out "$out" >/dev/null 2>&1  # env.txt and the build-path link only
(cd build-cuda && timeout 200 ctest -R "test_core|test_laplace_operator|test_vertex_patch|test_multigrid|test_tuning" -L Cuda \
  --output-on-failure -j4 --timeout 190) > "$out/ctest.log" 2>&1
echo "ctest exit $?"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest.log"
FILTER='TensorContraction/Cuda.*' SANITIZE_TIMEOUT=40 bash perf/sanitize.sh build-cuda "$out" test_core
FILTER='*/Cuda.Restriction*:*/Cuda.Prolongation*' SANITIZE_TIMEOUT=60 bash perf/sanitize.sh build-cuda "$out" test_multigrid
FILTER='*/Cuda.EveryDegree*' SANITIZE_TIMEOUT=70 bash perf/sanitize.sh build-cuda "$out" test_vertex_patch
source .device/ab.sh
(cd "$out" && tar czf ../results.tgz . && rm -f ./* && mv ../results.tgz .)
