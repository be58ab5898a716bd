#!/usr/bin/env bash
# Device call g4 (2026-11-29): the bake-off kernels in even-odd form (build-n, commit in
# commit.txt) against the direct form (build-b: 62828ca): Cuda tests + memcheck of build-n, the BP
# sweep (element kernel, fused operator, 20-iteration CG) k = 1..8 at 2e7 DoFs FP64 with the
# defaults, two rounds alternating, FP32 element/operator once each; and the continuous operator
# 3D k = 1..4 of build-n (no interior check below k = 3) against build-o (6748b0c).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g4.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_bake_off test_core; do
  timeout 300 build-n/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 300 $CS --tool memcheck build-n/tests/test_bake_off --gtest_filter='*Cuda.FullOperator*:*Cuda.TeamShapes*' > $L/memcheck.txt 2>&1; echo "memcheck exit $? $(tail -1 $L/memcheck.txt)" >> $R/session.log
stamp operator
for round in a b; do
  for b in o n; do
    [ $round = b ] && b=$([ $b = o ] && echo n || echo o)
    timeout 100 build-$b/perf/tensormg-bench-operator --dims 3 --degrees 1,2,3,4 --dofs 6e7 --precisions double --scatter atomic --ceilings $C --spmv-max-gib 0 --repeats 10 --output $R/op3d-$b-$round.json --overwrite > $L/op3d-$b-$round.txt 2>&1
    echo "op3d $b $round exit $?" >> $R/session.log
  done
done
stamp bp
for round in a b; do
  for b in b n; do
    [ $round = b ] && b=$([ $b = b ] && echo n || echo b)
    timeout 240 build-$b/perf/tensormg-bench-bp --problems bp1.0,bp3.5,bp3.0 --degrees 1,2,3,4,5,6,7,8 --dofs 2e7 --repeats 5 --cg-iterations 20 --ceilings $C -o $R/bp-$b-$round.json --overwrite > $L/bp-$b-$round.txt 2>&1
    echo "bp $b $round exit $?" >> $R/session.log
  done
done
for b in b n; do
  timeout 120 build-$b/perf/tensormg-bench-bp --problems bp1.0,bp3.5,bp3.0 --degrees 2,3,4,5,6,7,8 --dofs 2e7 --repeats 5 --cg-iterations 0 --precisions float --ceilings $C -o $R/bp-fp32-$b.json --overwrite > $L/bp-fp32-$b.txt 2>&1
  echo "bp fp32 $b exit $?" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
