#!/usr/bin/env bash
# Device call g12 (2026-11-29): the final rows of this stop (build-g, 47b0fb8: float k = 8 with every
# output pair unrolled) against e6b870e (build-f): Cuda tests, memcheck and racecheck of
# test_vertex_patch on build-g, one smoothing step 3D k = 1..8 FP64/FP32 two rounds alternating,
# V-cycle breakdown and FMG s/GDoF 3D k = 1, 3, 7 double/mixed on build-g.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g12.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 400 build-g/tests/test_vertex_patch --gtest_filter='*Cuda*' > $L/test_vertex_patch.txt 2>&1
echo "test_vertex_patch exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_vertex_patch.txt | tr '\n' ' ')" >> $R/session.log
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 300 $CS --tool memcheck build-g/tests/test_vertex_patch --gtest_filter='*Cuda.EveryDegreeDefault*' > $L/memcheck.txt 2>&1; echo "memcheck exit $? $(tail -1 $L/memcheck.txt)" >> $R/session.log
timeout 300 $CS --tool racecheck build-g/tests/test_vertex_patch --gtest_filter='*Cuda.Q7Fused*:*Cuda.OneStepMatchesSequentialAlgorithm3D' > $L/racecheck.txt 2>&1; echo "racecheck exit $? $(tail -1 $L/racecheck.txt)" >> $R/session.log
stamp smoother
for round in a b; do
  for b in f g; do
    [ $round = b ] && b=$([ $b = f ] && echo g || echo f)
    timeout 200 build-$b/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/smoother-3d-$b-$round.json --overwrite > $L/smoother-3d-$b-$round.txt 2>&1
    echo "smoother 3d $b $round exit $?" >> $R/session.log
  done
done
stamp multigrid
timeout 240 build-g/perf/tensormg-bench-multigrid --study vcycle --dims 3 --degrees 1,3,7 --dofs 1e8 --precisions double,float --cycles 10 -o $R/vcycle-g.json --overwrite > $L/vcycle-g.txt 2>&1
echo "vcycle g exit $?" >> $R/session.log
timeout 300 build-g/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-g.json --overwrite > $L/fmg-g.txt 2>&1
echo "fmg g exit $? $(grep -E '^ *3 +7 ' $L/fmg-g.txt | tr -s ' ' | tr '\n' ';' | cut -c1-400)" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
