#!/usr/bin/env bash
# Device call g9 (2026-11-29): tuning variants of the even-odd residual rows, one smoothing step 3D
# k = 1..8 (3e7 DoFs) FP64/FP32, two rounds alternating: build-e (ff9d8fa's rows) against build-b
# (3D k = 5, 6, 7 at 4 teams per SM, k = 8 at 3).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g9.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp smoother
for round in a b; do
  for b in e b; do
    [ $round = b ] && b=$([ $b = e ] && echo b || echo e)
    timeout 200 build-$b/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/smoother-3d-$b-$round.json --overwrite > $L/smoother-3d-$b-$round.txt 2>&1
    echo "smoother 3d $b $round exit $?" >> $R/session.log
  done
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
