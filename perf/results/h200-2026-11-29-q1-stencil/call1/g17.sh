#!/usr/bin/env bash
# Device call g17 (2026-11-29): Q1 as a stencil (build-n, 388b908: the gathering operator and the
# k = 1 smoother's thread per patch) against 73734b4 (build-t bench-multigrid, build-p poisson):
# Cuda tests of the operator, smoother and multigrid with memcheck on the new kernels; operator and
# one smoothing step at k = 1 (2D, 3D; FP64, FP32) new against the cell kernel / per-column kernel
# in the same binary, two rounds; V-cycle breakdown and FMG 3D Q1 old against new; driver time to
# solution at Q1 (455M) mixed / double old against new; cuSPARSE CG + Jacobi at Q1 200^3 with our
# CG + Jacobi and FMG on the same mesh.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g17.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_laplace_operator test_vertex_patch test_multigrid; do
  timeout 300 build-n/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 200 $CS --tool memcheck build-n/tests/test_laplace_operator --gtest_filter='*Cuda.Gather*' > $L/memcheck-op.txt 2>&1; echo "memcheck op exit $? $(tail -1 $L/memcheck-op.txt)" >> $R/session.log
timeout 200 $CS --tool memcheck build-n/tests/test_vertex_patch --gtest_filter='*Cuda.PerPatch*' > $L/memcheck-sm.txt 2>&1; echo "memcheck smoother exit $? $(tail -1 $L/memcheck-sm.txt)" >> $R/session.log
timeout 200 $CS --tool racecheck build-n/tests/test_vertex_patch --gtest_filter='*Cuda.PerPatchQ1*' > $L/racecheck-sm.txt 2>&1; echo "racecheck smoother exit $? $(tail -1 $L/racecheck-sm.txt)" >> $R/session.log
stamp kernels
for round in a b; do
  timeout 150 build-n/perf/tensormg-bench-operator --dims 2,3 --degrees 1 --dofs 6e7 --precisions double,float --scatter auto,atomic --ceilings $C --spmv-max-gib 0 --repeats 10 -o $R/op-$round.json --overwrite > $L/op-$round.txt 2>&1
  echo "operator $round exit $?" >> $R/session.log
  timeout 150 build-n/perf/tensormg-bench-multigrid --study smoother --dims 2,3 --degrees 1 --dofs 3e7 --precisions double,float --thread-structures auto,per-column --repeats 5 --ceilings $C -o $R/smoother-$round.json --overwrite > $L/smoother-$round.txt 2>&1
  echo "smoother $round exit $?" >> $R/session.log
done
stamp multigrid
for round in a b; do
  for b in t n; do
    [ $round = b ] && b=$([ $b = t ] && echo n || echo t)
    timeout 120 build-$b/perf/tensormg-bench-multigrid --study vcycle --dims 2,3 --degrees 1 --dofs 1e8 --precisions double,float --cycles 10 -o $R/vcycle-$b-$round.json --overwrite > $L/vcycle-$b-$round.txt 2>&1
    echo "vcycle $b $round exit $?" >> $R/session.log
  done
done
for b in t n; do
  timeout 200 build-$b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-$b.json --overwrite > $L/fmg-$b.txt 2>&1
  echo "fmg $b exit $? $(grep -E '^ *3 +1 ' $L/fmg-$b.txt | tr -s ' ' | tr '\n' ';' | cut -c1-600)" >> $R/session.log
done
stamp solves
for b in p n; do
  P=build-$b/drivers/tensormg-poisson
  for prec in mixed double; do
    name="poisson-q1-455M-$prec-$b"
    timeout 90 $P --dim 3 -k 1 --cells 3 -r 8 --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
    echo "$name exit $? | $(grep -E '^  (DoFs|iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
  done
done
(cd .device && timeout 120 python3 cg_anchor.py 3 1 200) > $R/cg_anchor-3-1-200.txt 2>&1; echo "anchor exit $? $(tail -2 $R/cg_anchor-3-1-200.txt | tr '\n' '|')" >> $R/session.log
for spec in "fmg --precision mixed" "fmg --precision double" "cg --preconditioner jacobi" "cg --preconditioner mg --precision mixed"; do
  name="q1-200-$(echo "$spec" | tr -d ' -')"
  timeout 60 build-n/drivers/tensormg-poisson --dim 3 -k 1 --cells 25 -r 3 --solver $spec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
  echo "$name exit $? | $(grep -E '^  (DoFs|iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
