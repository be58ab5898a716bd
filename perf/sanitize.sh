#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over the Cuda tests of the given programs.
# Usage: bash perf/sanitize.sh <build dir> <out dir> <test program>...
build="$1"; out="$2"; shift 2
for name in "$@"; do
  for tool in memcheck racecheck; do
    log="$out/sanitizer-$name-$tool.log"
    timeout ${SANITIZE_TIMEOUT:-300} compute-sanitizer --tool $tool --print-limit 100000 --error-exitcode 9 "$build/tests/$name" --gtest_filter="${FILTER:-*/Cuda.*}" > "$log" 2>&1
    echo "compute-sanitizer $tool $name: exit $? | $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log") | $(grep -m1 -E 'PASSED|FAILED' "$log")"
    # Which kernels the reports name (Kokkos' own reductions vs tensormg's kernels).
    grep -o 'Race reported between [A-Za-z]* access at [^(]*' "$log" | grep -o 'ParallelReduce<[A-Za-z:_]*\|ParallelFor<[A-Za-z:_]*\|tensormg::[A-Za-z]*' | sort | uniq -c
  done
done
