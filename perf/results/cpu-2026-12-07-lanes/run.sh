#!/usr/bin/env bash
# The vertex-patch smoother with patches in SIMD lanes (ThreadStructure::lanes) against one thread
# per column on the VM (2 cores, OpenMP): one smoothing step, and FMG with the automatic structure
# (lanes) against per-column. Two builds of one tree: build/ (default flags: SSE2, 2 doubles a
# pack) and build-native/ (-DTENSORMG_NATIVE_ARCH=ON: AVX-512, 8 doubles).
# Usage: bash run.sh <out dir> (from the repository root).
set -u
out=${1:?out dir}
mkdir -p "$out"
export OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads
for b in build build-native; do
  tag=$([ $b = build ] && echo sse2 || echo avx512)
  for d in 2 3; do
    degrees=$([ $d = 2 ] && echo 2,3,4,5,6,7,8,9,10 || echo 2,3,4,5,6,7,8)
    $b/perf/tensormg-bench-multigrid --study smoother --dims $d --degrees $degrees --dofs 2e6 --precisions double,float \
      --thread-structures per-column,lanes --repeats 3 -o "$out/smoother-${d}d-$tag.json" --overwrite > "$out/smoother-${d}d-$tag.txt" 2>&1
  done
  for spec in "-k 2 --cells 3 -r 4" "-k 4 --cells 3 -r 3" "-k 7 --cells 3 -r 2"; do
    n=$(echo "$spec" | awk '{print "k"$2}')
    for ts in per-column auto; do
      for prec in double mixed; do
        $b/drivers/tensormg-poisson --dim 3 $spec --solver fmg --precision $prec --thread-structure $ts --rtol 1e-9 \
          --problem one --repeat 3 > "$out/fmg-$tag-$n-$prec-$ts.txt" 2>&1
      done
    done
  done
done
