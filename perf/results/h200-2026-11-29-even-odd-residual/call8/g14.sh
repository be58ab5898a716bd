#!/usr/bin/env bash
# Device call g14 (2026-11-29): the parent-cell transfer with as many cells per team as give its
# thinnest contraction step a column per thread (build-t: 1cefdea + the transfer change) against
# 1 cell per team from 3D k = 3 (build-g, 47b0fb8): Cuda tests and memcheck of test_multigrid on
# build-t; V-cycle breakdown 3D k = 2..8 (1e8 DoFs) FP64/FP32, two rounds alternating; FMG s/GDoF
# 3D k = 2, 3, 5, 7 double/mixed both builds.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g14.tar.xz
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 400 build-t/tests/test_multigrid --gtest_filter='*Cuda*' > $L/test_multigrid.txt 2>&1
echo "test_multigrid exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_multigrid.txt | tr '\n' ' ')" >> $R/session.log
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 300 $CS --tool memcheck build-t/tests/test_multigrid --gtest_filter='*Cuda.RestrictionIsTransposeOfProlongation:*Cuda.ProlongationReproducesCoarsePolynomials' > $L/memcheck.txt 2>&1; echo "memcheck exit $? $(tail -1 $L/memcheck.txt)" >> $R/session.log
timeout 300 $CS --tool racecheck build-t/tests/test_multigrid --gtest_filter='*Cuda.ProlongationReproducesCoarsePolynomials' > $L/racecheck.txt 2>&1; echo "racecheck exit $? $(tail -1 $L/racecheck.txt)" >> $R/session.log
stamp vcycle
for round in a b; do
  for b in g t; do
    [ $round = b ] && b=$([ $b = g ] && echo t || echo g)
    timeout 300 build-$b/perf/tensormg-bench-multigrid --study vcycle --dims 3 --degrees 2,3,4,5,6,7,8 --dofs 1e8 --precisions double,float --cycles 10 -o $R/vcycle-$b-$round.json --overwrite > $L/vcycle-$b-$round.txt 2>&1
    echo "vcycle $b $round exit $?" >> $R/session.log
  done
done
stamp fmg
for b in g t; do
  timeout 300 build-$b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 2,3,5,7 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-$b.json --overwrite > $L/fmg-$b.txt 2>&1
  echo "fmg $b exit $? $(grep -E '^ *3 +[37] ' $L/fmg-$b.txt | tr -s ' ' | tr '\n' ';' | cut -c1-600)" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
