#!/usr/bin/env bash
# Device call f2 (2026-11-29): the DG FP16 step test (k = 3, 5, 7 against the double line-kernel
# step) and the padded-block test on Cuda, memcheck/racecheck of the FP16 test; one smoothing step
# float k = 5, 7 f16/f16ec with the committed team shape for float blocks of 16 (384 threads, 2 teams
# an SM: build-cuda) against 256 threads, 4 teams an SM (build-v), two rounds in alternating order.
set -u
R=$OUT/r; mkdir -p $R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/f2.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=build-cuda; L=$R/logs; C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 240 $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.FP16*:*Cuda.Padded*:*Cuda.N16*' > $L/test_dg_vertex_patch.txt 2>&1
echo "test_dg_vertex_patch exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_dg_vertex_patch.txt | tr '\n' ' ')" | tee -a $R/session.log
grep -E "info|FAILED|Failure" $L/test_dg_vertex_patch.txt | tee -a $R/session.log
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 200 $CS --tool memcheck $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.FP16*' > $L/memcheck-dg.txt 2>&1; echo "memcheck dg exit $? $(tail -1 $L/memcheck-dg.txt)" | tee -a $R/session.log
timeout 200 $CS --tool racecheck $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.FP16*' > $L/racecheck-dg.txt 2>&1; echo "racecheck dg exit $? $(tail -1 $L/racecheck-dg.txt)" | tee -a $R/session.log
stamp smoother
for round in a b; do
  for b in build-cuda build-v; do
    [ $round = b ] && b=$([ $b = build-cuda ] && echo build-v || echo build-cuda)
    timeout 120 $b/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 5,7 --dofs 3e7 --dg-contractions f16,f16ec --precisions float --repeats 10 --ceilings $C -o $R/smoother-$b-$round.json > $L/smoother-$b-$round.txt 2>&1
    echo "smoother $b $round exit $? $(grep -E '^  3' $L/smoother-$b-$round.txt | awk '{print $2, $4, $8, $11}' | tr '\n' ';')" | tee -a $R/session.log
  done
done
tar czf $R/logs.tgz -C $R logs && rm -rf $R/logs
stamp done
