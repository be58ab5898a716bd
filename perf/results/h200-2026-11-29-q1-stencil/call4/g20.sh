#!/usr/bin/env bash
# Device call g20 (2026-11-29): the Q1 by-node transfer with fixed inputs and the owned-box index
# path (build-g, 7th commit of the day's Q1 work) against 0a9218f (build-f): Cuda test_multigrid
# with memcheck; V-cycle Q1 2D/3D, two rounds alternating; FMG 3D Q1; the driver at Q1 455M.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g20.tar.xz
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 300 build-g/tests/test_multigrid --gtest_filter='*Cuda*' > $L/test_multigrid.txt 2>&1
echo "test_multigrid exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_multigrid.txt | tr '\n' ' ')" >> $R/session.log
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 300 $CS --tool memcheck build-g/tests/test_multigrid --gtest_filter='*Cuda.RestrictionIsTransposeOfProlongation:*Cuda.ProlongationReproducesCoarsePolynomials' > $L/memcheck.txt 2>&1; echo "memcheck exit $? $(tail -1 $L/memcheck.txt)" >> $R/session.log
stamp vcycle
for round in a b; do
  for b in f g; do
    [ $round = b ] && b=$([ $b = f ] && echo g || echo f)
    timeout 120 build-$b/perf/tensormg-bench-multigrid --study vcycle --dims 2,3 --degrees 1 --dofs 1e8 --precisions double,float --cycles 10 -o $R/vcycle-$b-$round.json --overwrite > $L/vcycle-$b-$round.txt 2>&1
    echo "vcycle $b $round exit $?" >> $R/session.log
  done
done
stamp fmg
for b in f g; do
  timeout 200 build-$b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-$b.json --overwrite > $L/fmg-$b.txt 2>&1
  echo "fmg $b exit $? $(grep -E '^ *3 +1 ' $L/fmg-$b.txt | tr -s ' ' | tr '\n' ';' | cut -c1-600)" >> $R/session.log
done
stamp solves
for b in f g; do
  for prec in mixed double; do
    name="poisson-q1-455M-$prec-$b"
    timeout 90 build-$b/drivers/tensormg-poisson --dim 3 -k 1 --cells 3 -r 8 --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
    echo "$name exit $? | $(grep -E '^  (DoFs|iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
  done
done
for b in f g; do
  name="poisson-q1-2d-$b"
  timeout 90 build-$b/drivers/tensormg-poisson --dim 2 -k 1 --cells 3 -r 12 --solver fmg --precision mixed --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
  echo "$name exit $? | $(grep -E '^  (DoFs|iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
