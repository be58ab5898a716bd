#!/usr/bin/env bash
# Device call g11 (2026-11-29): tuning variants after the even-odd residual, one smoothing step 3D
# k = 1..8 (3e7 DoFs) FP64/FP32, two rounds alternating: build-f (e6b870e's rows) against build-v
# (3D k = 6, 7, 8 with every output pair unrolled; k = 3 x step in blocks of 2), and Cuda tests of
# test_vertex_patch on build-v.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g11.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 400 build-v/tests/test_vertex_patch --gtest_filter='*Cuda*' > $L/test_vertex_patch.txt 2>&1
echo "test_vertex_patch exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_vertex_patch.txt | tr '\n' ' ')" >> $R/session.log
stamp smoother
for round in a b; do
  for b in f v; do
    [ $round = b ] && b=$([ $b = f ] && echo v || echo f)
    timeout 200 build-$b/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/smoother-3d-$b-$round.json --overwrite > $L/smoother-3d-$b-$round.txt 2>&1
    echo "smoother 3d $b $round exit $?" >> $R/session.log
  done
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
