#!/usr/bin/env bash
# Device call 3: compute-sanitizer on the padded block tests (final build); the patch-wise
# operator lines vs blocks, build-a against the final build; test_dg_multigrid.
set -u
R=$OUT/r; mkdir -p $R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/b3.tar.xz; tar xJf .device/a3.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
L=$R/logs; C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_core test_dg_vertex_patch test_dg_multigrid; do
  timeout 150 build-cuda/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" | tee -a $R/session.log
done
stamp sanitizer
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 120 $CS --tool memcheck build-cuda/tests/test_core --gtest_filter='*Cuda.MatchesHostLoop' > $L/memcheck-core.txt 2>&1; echo "memcheck core exit $? $(tail -1 $L/memcheck-core.txt)" | tee -a $R/session.log
timeout 120 $CS --tool memcheck build-cuda/tests/test_dg_vertex_patch --gtest_filter='*Cuda.PaddedBlock*:*Cuda.N16*' > $L/memcheck-dg.txt 2>&1; echo "memcheck dg exit $? $(tail -1 $L/memcheck-dg.txt)" | tee -a $R/session.log
timeout 150 $CS --tool racecheck build-cuda/tests/test_dg_vertex_patch --gtest_filter='*Cuda.PaddedBlock*' > $L/racecheck-dg.txt 2>&1; echo "racecheck dg exit $? $(tail -1 $L/racecheck-dg.txt)" | tee -a $R/session.log
timeout 100 $CS --tool synccheck build-cuda/tests/test_dg_vertex_patch --gtest_filter='*Cuda.PaddedBlock*' > $L/synccheck-dg.txt 2>&1; echo "synccheck dg exit $? $(tail -1 $L/synccheck-dg.txt)" | tee -a $R/session.log
stamp operator
for v in build-a build-cuda; do
  timeout 90 $v/perf/tensormg-bench-operator --discretizations dg --dg-evaluations patch --dg-contractions lines,blocks --dims 3 --degrees 3,4,5,6,7 --dofs 3e7 --precisions double --repeats 10 --spmv-max-gib 0 --ceilings $C -o $R/operator-$v.json > $L/operator-$v.txt 2>&1
  echo "operator $v exit $?" | tee -a $R/session.log; cat $L/operator-$v.txt >> $R/session.log
done
stamp done
