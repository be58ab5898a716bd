#!/usr/bin/env bash
# The benchmark part of a GPU session (after perf/gpu_session.sh has run the tests):
# the operator sweep of the Poisson issue and a large Poisson solve. Results go to $OUT.
# Usage: bash perf/run_gpu_benchmarks.sh <build dir> <ceilings.json>
set -uo pipefail
build="$1"
ceilings="$2"
out="${OUT:-$PWD/gpu-out}"
mkdir -p "$out"
bench="$build/perf/tensormg-bench-operator"
echo "== 3D FP64, k = 1..8, >= 50M DoF (matrix-free only: the CRS matrix does not fit)"
$bench --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 6e7 --precisions double --ceilings "$ceilings" \
  --spmv-max-gib 0 --output "$out/bench-3d-large.json" --overwrite
echo "== 3D FP64 and FP32 at ~2M DoF with the SpMV of the same matrix"
$bench --dims 3 --degrees 1,2,3,4,5,6 --dofs 2e6 --precisions double,float --ceilings "$ceilings" \
  --spmv-max-gib 16 --output "$out/bench-3d-spmv.json" --overwrite
echo "== 2D FP64, k = 1..10, ~50M DoF, and SpMV at 8M"
$bench --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 5e7 --ceilings "$ceilings" --spmv-max-gib 0 \
  --output "$out/bench-2d-large.json" --overwrite
$bench --dims 2 --degrees 1,2,4,6 --dofs 8e6 --ceilings "$ceilings" --spmv-max-gib 12 \
  --output "$out/bench-2d-spmv.json" --overwrite
echo "== cells per team and scatter mode, 3D FP64 ~30M DoF"
$bench --dims 3 --degrees 2,4,6 --dofs 3e7 --cells-per-team 1,2,4,8,16 --scatter atomic,coloring \
  --spmv-max-gib 0 --ceilings "$ceilings" --output "$out/bench-3d-teams.json" --overwrite
