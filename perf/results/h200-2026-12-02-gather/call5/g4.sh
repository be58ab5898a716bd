#!/usr/bin/env bash
# Device call g4 (2026-12-02): Nsight Compute on the gathering kernel (2443c58's binary of call 3)
# at 3D k = 2, 5, 7 FP64 (registers, spills, occupancy, shared-memory and issue stalls).
set -u
R=$OUT/r; mkdir -p $R; tar xJf .device/g3.tar.xz
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for k in 2 5 7; do
  timeout 150 $NCU --set full --kernel-name-base demangled --kernel-name regex:LaplaceGather --launch-skip 3 --launch-count 1 build-g/perf/tensormg-bench-operator --dims 3 --degrees $k --dofs 6e6 --precisions double --scatter gather --spmv-max-gib 0 --repeats 3 > $R/ncu-k$k.txt 2>&1
  echo "k$k exit $?" >> $R/session.log
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
