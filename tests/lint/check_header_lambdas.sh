#!/usr/bin/env bash
# Fails when a header under the given source root holds an extended device lambda (KOKKOS_LAMBDA,
# KOKKOS_CLASS_LAMBDA or a [..] __host__ __device__ lambda). nvcc keeps the state of such a lambda's
# wrapper (__nv_hdl_helper::fp_copier) per translation unit in an anonymous namespace while the
# wrapper's inline copy constructor is shared: where two units instantiate the same header lambda,
# the program may call the other unit's pointer, still null (tensormg-poisson --mixed-start
# corrections segfaulted so on the H100, perf/results/h100-2026-12-07-time-to-solution/g27). Kernels
# in headers are functors; lambdas stay in .cpp files.
# Usage: tests/lint/check_header_lambdas.sh <source root>
set -u
root=${1:?usage: check_header_lambdas.sh <source root>}
found=$(cd "$root" && grep -rnE --include='*.hpp' --include='*.h' --include='*.cuh' \
          'KOKKOS_(CLASS_)?LAMBDA|\]\s*(\([^)]*\))?\s*__host__\s+__device__' \
          core discretization multigrid smoothers backends drivers perf tests 2>/dev/null)
if [ -n "$found" ]; then
  echo "extended device lambdas in headers (write a functor; see this script's header):"
  echo "$found"
  exit 1
fi
echo "no extended device lambdas in headers"
