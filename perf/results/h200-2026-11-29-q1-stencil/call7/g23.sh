#!/usr/bin/env bash
# Device call g23 (2026-11-29): the Q1 stencil kernels with the k = 1 rows' launch bounds (build-h)
# against the same kernels without (build-f: 0a9218f bench-operator; build-g: f25538e
# bench-multigrid and poisson): Cuda tests with memcheck; operator and smoothing step at k = 1,
# V-cycle, FMG, driver; two rounds alternating where it is a kernel; ncu of the new kernels.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g23.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_laplace_operator test_vertex_patch; do
  timeout 300 build-h/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 200 $CS --tool memcheck build-h/tests/test_laplace_operator --gtest_filter='*Cuda.Gather*' > $L/memcheck-op.txt 2>&1; echo "memcheck op exit $? $(tail -1 $L/memcheck-op.txt)" >> $R/session.log
timeout 200 $CS --tool memcheck build-h/tests/test_vertex_patch --gtest_filter='*Cuda.PerPatch*' > $L/memcheck-sm.txt 2>&1; echo "memcheck smoother exit $? $(tail -1 $L/memcheck-sm.txt)" >> $R/session.log
stamp kernels
for round in a b; do
  for b in old h; do
    [ $round = b ] && b=$([ $b = old ] && echo h || echo old)
    OP=build-h/perf/tensormg-bench-operator; MG=build-h/perf/tensormg-bench-multigrid
    [ $b = old ] && OP=build-f/perf/tensormg-bench-operator && MG=build-g/perf/tensormg-bench-multigrid
    timeout 150 $OP --dims 2,3 --degrees 1 --dofs 6e7 --precisions double,float --scatter auto --ceilings $C --spmv-max-gib 0 --repeats 10 -o $R/op-$b-$round.json --overwrite > $L/op-$b-$round.txt 2>&1
    echo "operator $b $round exit $?" >> $R/session.log
    timeout 150 $MG --study smoother --dims 2,3 --degrees 1 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/smoother-$b-$round.json --overwrite > $L/smoother-$b-$round.txt 2>&1
    echo "smoother $b $round exit $?" >> $R/session.log
    timeout 120 $MG --study vcycle --dims 2,3 --degrees 1 --dofs 1e8 --precisions double,float --cycles 10 -o $R/vcycle-$b-$round.json --overwrite > $L/vcycle-$b-$round.txt 2>&1
    echo "vcycle $b $round exit $?" >> $R/session.log
  done
done
stamp fmg
for b in g h; do
  timeout 200 build-$b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-$b.json --overwrite > $L/fmg-$b.txt 2>&1
  echo "fmg $b exit $? $(grep -E '^ *3 +1 ' $L/fmg-$b.txt | tr -s ' ' | tr '\n' ';' | cut -c1-600)" >> $R/session.log
  for prec in mixed double; do
    name="poisson-q1-455M-$prec-$b"
    timeout 90 build-$b/drivers/tensormg-poisson --dim 3 -k 1 --cells 3 -r 8 --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
    echo "$name exit $? | $(grep -E '^  (iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
  done
done
stamp ncu
export PATH=$PATH:$(ls -d /usr/local/cuda*/bin 2>/dev/null | head -1)
mkdir -p $R/ncu
KERNEL=LaplaceQ1Gather PRECISION=double timeout 150 bash perf/profile_operator.sh build-h $R/ncu 3 1 > $L/ncu-op-double.log 2>&1
mv $R/ncu/ncu-3d-k1.txt $R/ncu/ncu-gather-3d-k1-double.txt 2>/dev/null
PRECISION=double timeout 200 bash perf/profile_smoother.sh build-h $R/ncu 3 1 > $L/ncu-sm-double.log 2>&1
mv $R/ncu/ncu-smoother-3d-k1.txt $R/ncu/ncu-smoother-3d-k1-double.txt 2>/dev/null
mv $R/ncu/ncu-smoother-stalls-3d-k1.txt $R/ncu/ncu-smoother-stalls-3d-k1-double.txt 2>/dev/null
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
