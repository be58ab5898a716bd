#!/usr/bin/env bash
# Device call g3 (2026-11-29): the final build of the even-odd operator (build-f, commit in
# commit.txt) against 6748b0c/earlier binaries (build-o: direct form, atomic scatter): Cuda tests +
# memcheck/racecheck, one vmult 3D k = 1..8 (6e7) and 2D k = 1..10 (5e7) both builds, V-cycle
# breakdown (new build) and FMG s/GDoF 3D k = 1, 3, 7 double/mixed both builds.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g3.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 300 build-f/tests/test_laplace_operator --gtest_filter='*Cuda*' > $L/test_laplace_operator.txt 2>&1
echo "test_laplace_operator exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_laplace_operator.txt | tr '\n' ' ')" >> $R/session.log
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 300 $CS --tool memcheck build-f/tests/test_laplace_operator --gtest_filter='*Cuda.InteriorStores*:*Cuda.Coloring*' > $L/memcheck.txt 2>&1; echo "memcheck exit $? $(tail -1 $L/memcheck.txt)" >> $R/session.log
timeout 300 $CS --tool racecheck build-f/tests/test_laplace_operator --gtest_filter='*Cuda.MatchesAssembledMatrixForAllDegrees3D' > $L/racecheck.txt 2>&1; echo "racecheck exit $? $(tail -1 $L/racecheck.txt)" >> $R/session.log
stamp operator
for round in a b; do
  for b in o f; do
    [ $round = b ] && b=$([ $b = o ] && echo f || echo o)
    S=atomic; [ $b = f ] && S=store-interior,atomic
    P=double; [ $round = a ] && P=double,float
    timeout 200 build-$b/perf/tensormg-bench-operator --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 6e7 --precisions $P --scatter $S --ceilings $C --spmv-max-gib 0 --repeats 10 --output $R/op3d-$b-$round.json --overwrite > $L/op3d-$b-$round.txt 2>&1
    echo "op3d $b $round exit $?" >> $R/session.log
    timeout 200 build-$b/perf/tensormg-bench-operator --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 5e7 --precisions double --scatter $S --ceilings $C --spmv-max-gib 0 --repeats 10 --output $R/op2d-$b-$round.json --overwrite > $L/op2d-$b-$round.txt 2>&1
    echo "op2d $b $round exit $?" >> $R/session.log
  done
done
stamp multigrid
timeout 240 build-f/perf/tensormg-bench-multigrid --study vcycle --dims 3 --degrees 1,3,7 --dofs 1e8 --precisions double,float --cycles 10 -o $R/vcycle-f.json --overwrite > $L/vcycle-f.txt 2>&1
echo "vcycle f exit $?" >> $R/session.log
for b in o f; do
  timeout 300 build-$b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-$b.json --overwrite > $L/fmg-$b.txt 2>&1
  echo "fmg $b exit $? $(grep -E '^ *3 ' $L/fmg-$b.txt | tr -s ' ' | tr '\n' ';' | cut -c1-400)" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
