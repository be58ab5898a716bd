#!/usr/bin/env bash
# Device call g5 (2026-11-29): the vertex-patch smoother's fast diagonalization in mode-split
# (even-odd) form (build-s, commit in commit.txt) against the direct form (build-f: 62828ca):
# Cuda tests + memcheck/racecheck of test_vertex_patch, one smoothing step 3D k = 1..8 (3e7 DoFs)
# FP64/FP32 two rounds alternating, 2D k = 1..10 FP64 one round each, V-cycle breakdown and FMG
# s/GDoF 3D k = 1, 3, 7 double/mixed both builds.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g5.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 400 build-s/tests/test_vertex_patch --gtest_filter='*Cuda*' > $L/test_vertex_patch.txt 2>&1
echo "test_vertex_patch exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_vertex_patch.txt | tr '\n' ' ')" >> $R/session.log
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 300 $CS --tool memcheck build-s/tests/test_vertex_patch --gtest_filter='*Cuda.EveryDegreeDefault*' > $L/memcheck.txt 2>&1; echo "memcheck exit $? $(tail -1 $L/memcheck.txt)" >> $R/session.log
timeout 300 $CS --tool racecheck build-s/tests/test_vertex_patch --gtest_filter='*Cuda.Q7Fused*:*Cuda.OneStepMatchesSequentialAlgorithm3D' > $L/racecheck.txt 2>&1; echo "racecheck exit $? $(tail -1 $L/racecheck.txt)" >> $R/session.log
stamp smoother
for round in a b; do
  for b in f s; do
    [ $round = b ] && b=$([ $b = f ] && echo s || echo f)
    timeout 200 build-$b/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/smoother-3d-$b-$round.json --overwrite > $L/smoother-3d-$b-$round.txt 2>&1
    echo "smoother 3d $b $round exit $?" >> $R/session.log
  done
done
for b in f s; do
  timeout 200 build-$b/perf/tensormg-bench-multigrid --study smoother --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 3e7 --precisions double --repeats 5 --ceilings $C -o $R/smoother-2d-$b.json --overwrite > $L/smoother-2d-$b.txt 2>&1
  echo "smoother 2d $b exit $?" >> $R/session.log
done
stamp multigrid
timeout 240 build-s/perf/tensormg-bench-multigrid --study vcycle --dims 3 --degrees 1,3,7 --dofs 1e8 --precisions double,float --cycles 10 -o $R/vcycle-s.json --overwrite > $L/vcycle-s.txt 2>&1
echo "vcycle s exit $?" >> $R/session.log
for b in f s; do
  timeout 300 build-$b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-$b.json --overwrite > $L/fmg-$b.txt 2>&1
  echo "fmg $b exit $? $(grep -E '^ *3 +7 ' $L/fmg-$b.txt | tr -s ' ' | tr '\n' ';' | cut -c1-400)" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
