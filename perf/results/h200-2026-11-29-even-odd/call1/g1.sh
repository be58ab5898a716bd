#!/usr/bin/env bash
# Device call g1 (2026-11-29): the continuous operator's contractions in even-odd form + the
# store-interior scatter (build-n, commit in commit.txt) against the direct form of 6748b0c
# (build-o): Cuda tests + memcheck of the new build, registers/spills of both, one vmult 3D k = 1..8
# (6e7 DoFs) and 2D k = 1..10 (5e7), FP64 and FP32, two rounds alternating old/new.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g1.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_laplace_operator test_core; do
  timeout 300 build-n/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 300 $CS --tool memcheck build-n/tests/test_laplace_operator --gtest_filter='*Cuda.InteriorStores*:*Cuda.Coloring*' > $L/memcheck.txt 2>&1; echo "memcheck exit $? $(tail -1 $L/memcheck.txt)" >> $R/session.log
OBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
for b in o n; do
  $OBJ -res-usage build-$b/perf/tensormg-bench-operator 2>/dev/null | grep -A1 "CellOperatorKernel" | grep -o "REG:[0-9]* STACK:[0-9]* SHARED:[0-9]* LOCAL:[0-9]*" > $L/res-$b.txt
  echo "res $b: $(sort $L/res-$b.txt | uniq -c | tr '\n' ';')" >> $R/session.log
done
stamp bench
for round in a b; do
  for b in o n; do
    [ $round = b ] && b=$([ $b = o ] && echo n || echo o)
    S=atomic; [ $b = n ] && S=atomic,store-interior
    timeout 200 build-$b/perf/tensormg-bench-operator --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 6e7 --precisions double,float --scatter $S --ceilings $C --spmv-max-gib 0 --repeats 10 --output $R/op3d-$b-$round.json --overwrite > $L/op3d-$b-$round.txt 2>&1
    echo "op3d $b $round exit $?" >> $R/session.log
    timeout 200 build-$b/perf/tensormg-bench-operator --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 5e7 --precisions double --scatter $S --ceilings $C --spmv-max-gib 0 --repeats 10 --output $R/op2d-$b-$round.json --overwrite > $L/op2d-$b-$round.txt 2>&1
    echo "op2d $b $round exit $?" >> $R/session.log
  done
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
