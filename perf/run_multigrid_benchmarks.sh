#!/usr/bin/env bash
# The multigrid studies of paper 000 on the GPU (or the CPU build), one record per study.
# Usage: bash perf/run_multigrid_benchmarks.sh <build dir> <out dir> <ceilings.json> <part>
#   part smoother: one smoothing step, every kernel variant, 2D k=1..10 and 3D k=1..8 (+ float default)
#   part vcycle:   V-cycle breakdown, 2D and 3D
#   part fmg:      full multigrid s/GDoF for k = 1, 3, 7 (3D) double and mixed, largest sizes
#   part iterations: Table 1 (2D) and its 3D analogue, vertex patch vs point smoothers in 3D
set -uo pipefail
build="$1"; out="$2"; ceil="$3"; part="$4"
bench="$build/perf/tensormg-bench-multigrid"
mkdir -p "$out"
run() { local name="$1"; shift; echo "== $name: $*"; "$bench" "$@" -o "$out/$name.json" --overwrite 2>&1 | tee "$out/$name.txt"; }
case "$part" in
  smoother)
    run smoother-3d-all --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs ${DOFS3:-3e7} --variants all --ceilings "$ceil" --repeats 5
    run smoother-2d-all --study smoother --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs ${DOFS2:-3e7} --variants all --ceilings "$ceil" --repeats 5
    run smoother-ppt-2d --study smoother --dims 2 --degrees 1,2,3,4,5,6,7,8 --dofs ${DOFS3:-3e7} --patches-per-team 0,1,2,4,8,16 --ceilings "$ceil" --repeats 5
    run smoother-ppt-3d --study smoother --dims 3 --degrees 1,2,3,4 --dofs ${DOFS3:-3e7} --patches-per-team 0,1,2,4,8 --ceilings "$ceil" --repeats 5
    run smoother-float --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs ${DOFS3:-3e7} --precisions float --ceilings "$ceil" --repeats 5
    ;;
  vcycle)
    run vcycle --study vcycle --dims 2,3 --degrees 1,2,3,4,5,6,7,8 --dofs ${DOFS3:-5e7} --precisions double,float --cycles 10
    ;;
  fmg)
    run fmg-3d --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --max-dofs ${MAXDOFS3:-1.4e8} --problem one --repeats 3
    ;;
  iterations)
    run iterations-2d --study iterations --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --levels 4,5,6,7,8,9,10 --max-dofs ${MAXDOFS2:-3e7}
    run iterations-3d --study iterations --dims 3 --degrees 1,2,3,4,5,6,7,8 --levels 2,3,4,5,6 --max-dofs ${MAXDOFS3:-3e7}
    run iterations-3d-smoothers --study iterations --dims 3 --degrees 1,2,3,4,5,6,7,8 --levels 2,3 --smoothers vertex-patch,jacobi,chebyshev --max-dofs 5e6
    # Gauss-Seidel sweeps an assembled matrix on the host ((2k+1)^3 entries per row): small meshes only.
    run iterations-3d-gauss-seidel --study iterations --dims 3 --degrees 1,2,3,4,5,6 --levels 2 --smoothers gauss-seidel --max-dofs 4e4
    ;;
  *) echo "unknown part $part"; exit 2 ;;
esac
