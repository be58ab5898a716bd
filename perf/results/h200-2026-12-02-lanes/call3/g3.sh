#!/usr/bin/env bash
# Device call g3 (2026-12-02, session 3): Nsight Compute of the lanes-4 and lanes-2 elasticity kernels
# (binaries of g2) next to the thread-per-cell one, same launch as g1's.
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/g2.tar.xz
B=build-g
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for l in 4 2; do
  timeout 150 $NCU --set full --kernel-name-base demangled --kernel-name regex:LowOrderLaneKernel --launch-skip 3 --launch-count 1 $B/perf/tensormg-bench-loworder --problems elasticity --dofs 3e6 --operators mf --geometry on-the-fly --evaluation lanes --lanes $l --scatter atomic --repeats 3 --cg-iterations 0 > $R/ncu-lanes$l.txt 2>&1
  echo "ncu lanes $l exit $?" >> $R/session.log
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
