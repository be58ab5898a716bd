#!/usr/bin/env bash
# Device call g7 (2026-11-29): the vertex-patch residual's contractions in even-odd form (build-e,
# commit in commit.txt) against the tuning rows of stop 40 (build-c: c3a4c71): Cuda tests of
# test_vertex_patch and test_core, memcheck/racecheck of test_vertex_patch, one smoothing step 3D
# k = 1..8 (3e7 DoFs) FP64/FP32 two rounds alternating, 2D k = 1..10 FP64, V-cycle breakdown, FMG
# s/GDoF 3D k = 1, 3, 7 double/mixed both builds.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g7base.tar.xz; tar xJf .device/g7.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_vertex_patch test_core; do
  timeout 400 build-e/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 300 $CS --tool memcheck build-e/tests/test_vertex_patch --gtest_filter='*Cuda.EveryDegreeDefault*' > $L/memcheck.txt 2>&1; echo "memcheck exit $? $(tail -1 $L/memcheck.txt)" >> $R/session.log
timeout 300 $CS --tool racecheck build-e/tests/test_vertex_patch --gtest_filter='*Cuda.Q7Fused*:*Cuda.OneStepMatchesSequentialAlgorithm3D' > $L/racecheck.txt 2>&1; echo "racecheck exit $? $(tail -1 $L/racecheck.txt)" >> $R/session.log
stamp smoother
for round in a b; do
  for b in c e; do
    [ $round = b ] && b=$([ $b = c ] && echo e || echo c)
    timeout 200 build-$b/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/smoother-3d-$b-$round.json --overwrite > $L/smoother-3d-$b-$round.txt 2>&1
    echo "smoother 3d $b $round exit $?" >> $R/session.log
  done
done
for b in c e; do
  timeout 200 build-$b/perf/tensormg-bench-multigrid --study smoother --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/smoother-2d-$b.json --overwrite > $L/smoother-2d-$b.txt 2>&1
  echo "smoother 2d $b exit $?" >> $R/session.log
done
stamp multigrid
timeout 240 build-e/perf/tensormg-bench-multigrid --study vcycle --dims 3 --degrees 1,3,7 --dofs 1e8 --precisions double,float --cycles 10 -o $R/vcycle-e.json --overwrite > $L/vcycle-e.txt 2>&1
echo "vcycle e exit $?" >> $R/session.log
for b in c e; do
  timeout 300 build-$b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-$b.json --overwrite > $L/fmg-$b.txt 2>&1
  echo "fmg $b exit $? $(grep -E '^ *3 +7 ' $L/fmg-$b.txt | tr -s ' ' | tr '\n' ';' | cut -c1-400)" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
