#!/usr/bin/env bash
# Device call 1: DG patch block kernel, blocks padded to 16 (k = 4..6, FP64 m16n8k16) and three
# buffers / two teams per SM (build-cuda, candidate) against four buffers / one team (build-a):
# Cuda tests of the candidate, one smoothing step lines vs blocks, both builds, two rounds.
set -u
R=$OUT/r; mkdir -p $R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/b1.tar.xz; tar xJf .device/a1.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
L=$R/logs; C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_core test_dg_vertex_patch; do
  timeout 120 build-cuda/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" | tee -a $R/session.log
done
grep -E "FAILED|Failure" -A3 $L/test_*.txt | head -40 >> $R/session.log
stamp smoother
for round in a b; do
  for v in build-a build-cuda; do
    [ $round = b ] && v=$([ $v = build-a ] && echo build-cuda || echo build-a)
    timeout 120 $v/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3,4,5,6,7 --dofs 3e7 --dg-contractions lines,blocks --precisions double --repeats 10 --ceilings $C -o $R/smoother-$v-$round.json > $L/smoother-$v-$round.txt 2>&1
    echo "smoother $v $round exit $?" | tee -a $R/session.log; cat $L/smoother-$v-$round.txt >> $R/session.log
  done
done
stamp done
