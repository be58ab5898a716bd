#!/bin/bash
# The VM record cpu-2026-12-07-simd: the host operator with cells in SIMD lanes against the
# gathered and cell kernels, in a default (SSE2) and a TENSORMG_NATIVE_ARCH (AVX-512) build, and
# Debian's deal.II MatrixFree beside it. usage: run.sh <out dir>
set -u
out=$1; mkdir -p $out
export OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd /tmp/ci
for b in build build-native; do
  tag=$([ $b = build ] && echo sse2 || echo avx512)
  $b/perf/tensormg-bench-operator --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 2e6 --precisions double,float \
    --scatter gather,store-interior,simd --spmv-max-gib 0 --repeats 10 -o $out/operator-3d-$tag.json --overwrite > $out/operator-3d-$tag.txt 2>&1
  $b/perf/tensormg-bench-operator --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 2e6 --precisions double \
    --scatter gather,store-interior,simd --spmv-max-gib 0 --repeats 10 -o $out/operator-2d-$tag.json --overwrite > $out/operator-2d-$tag.txt 2>&1
done
for b in plain native; do
  for kr in "2 6" "4 5" "7 4" "8 4"; do
    OMP_NUM_THREADS=1 mpiexec -n 2 --bind-to core /tmp/dealii/$b/mf_laplace 3 $kr 20 2>&1 | grep deal.II
  done > $out/dealii-$b.txt
done
# Time to solution on the CPU: FMG to 1e-9 (f = 1), the old automatic scatter against simd.
for b in build build-native; do
  tag=$([ $b = build ] && echo sse2 || echo avx512)
  for case in "4 gather" "4 simd" "7 store-interior" "7 simd"; do
    set -- $case
    $b/drivers/tensormg-poisson --dim 3 -k $1 --cells 3 -r $([ $1 = 4 ] && echo 3 || echo 2) --solver fmg --rtol 1e-9 \
      --problem one --scatter $2 --repeat 3 --record $out/fmg-$tag-k$1-$2.json > $out/fmg-$tag-k$1-$2.txt 2>&1
  done
done
