#!/usr/bin/env bash
# Device call g2 (2026-12-02, session 2): are shared-memory bank conflicts what bounds the cell kernel at
# k >= 5? Same binary as g1; cells per team changes which cells and lines share a half-warp (the
# bank pattern) without a rebuild: time and ncu bank conflicts at 3D FP64 k = 5 (cpt 4, 7, 8) and
# k = 7 (cpt 2, 3, 4).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g1.tar.xz
B=build-g
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
O="$B/perf/tensormg-bench-operator --ceilings $C --spmv-max-gib 0 --repeats 10 --overwrite --dofs 6e7 --dims 3 --precisions double --scatter store-interior"
stamp time
for round in a b; do
  timeout 60 $O --degrees 5 --cells-per-team 4,7,8 -o $R/cpt-k5-$round.json > $L/cpt-k5-$round.txt 2>&1; echo "k5 $round exit $?" >> $R/session.log
  timeout 60 $O --degrees 7 --cells-per-team 2,3,4 -o $R/cpt-k7-$round.json > $L/cpt-k7-$round.txt 2>&1; echo "k7 $round exit $?" >> $R/session.log
done
stamp ncu
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for spec in "5 4" "5 7" "5 8" "7 2" "7 3" "7 4"; do
  set -- $spec
  timeout 60 $NCU --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section LaunchStats --section Occupancy --kernel-name-base demangled --kernel-name regex:CellOperatorKernel --launch-skip 3 --launch-count 1 $B/perf/tensormg-bench-operator --dims 3 --degrees $1 --cells-per-team $2 --dofs 6e6 --precisions double --scatter store-interior --spmv-max-gib 0 --repeats 3 --warmup 0 > $R/ncu-k$1-cpt$2.txt 2>&1
  echo "ncu k$1 cpt$2 exit $?" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
