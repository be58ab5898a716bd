#!/usr/bin/env bash
# Device call g19 (2026-11-29): the Q1 stencil kernels with unconditional loads (build-f, 0a9218f)
# against their first form (build-n, 388b908) and the kernels before them (build-t bench-multigrid,
# build-p poisson, 73734b4): Cuda tests of build-f with memcheck/racecheck on the new kernels;
# operator (gathered against atomic, z nodes 16/32/64) and smoothing step (per patch against per
# column) at k = 1, build-n and build-f, two rounds alternating; V-cycle and FMG Q1 build-t
# against build-f; the driver at Q1 455M build-p against build-f; cuSPARSE CG + Jacobi with ours
# at Q1 200^3; Nsight Compute on the new kernels.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g19.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_laplace_operator test_vertex_patch test_multigrid; do
  timeout 300 build-f/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 200 $CS --tool memcheck build-f/tests/test_laplace_operator --gtest_filter='*Cuda.Gather*:*Cuda.MatchesAssembledMatrixForAllDegrees3D' > $L/memcheck-op.txt 2>&1; echo "memcheck op exit $? $(tail -1 $L/memcheck-op.txt)" >> $R/session.log
timeout 200 $CS --tool memcheck build-f/tests/test_vertex_patch --gtest_filter='*Cuda.PerPatch*:*Cuda.EveryDegreeDefault*' > $L/memcheck-sm.txt 2>&1; echo "memcheck smoother exit $? $(tail -1 $L/memcheck-sm.txt)" >> $R/session.log
timeout 200 $CS --tool racecheck build-f/tests/test_vertex_patch --gtest_filter='*Cuda.PerPatchQ1*' > $L/racecheck-sm.txt 2>&1; echo "racecheck smoother exit $? $(tail -1 $L/racecheck-sm.txt)" >> $R/session.log
stamp kernels
for round in a b; do
  for b in n f; do
    [ $round = b ] && b=$([ $b = n ] && echo f || echo n)
    Z=""; [ $b = f ] && Z="--gather-z-nodes 0,16,64"
    timeout 150 build-$b/perf/tensormg-bench-operator --dims 2,3 --degrees 1 --dofs 6e7 --precisions double,float --scatter auto,atomic $Z --ceilings $C --spmv-max-gib 0 --repeats 10 -o $R/op-$b-$round.json --overwrite > $L/op-$b-$round.txt 2>&1
    echo "operator $b $round exit $?" >> $R/session.log
    timeout 150 build-$b/perf/tensormg-bench-multigrid --study smoother --dims 2,3 --degrees 1 --dofs 3e7 --precisions double,float --thread-structures auto,per-column --repeats 5 --ceilings $C -o $R/smoother-$b-$round.json --overwrite > $L/smoother-$b-$round.txt 2>&1
    echo "smoother $b $round exit $?" >> $R/session.log
  done
done
stamp multigrid
for round in a b; do
  for b in t f; do
    [ $round = b ] && b=$([ $b = t ] && echo f || echo t)
    timeout 120 build-$b/perf/tensormg-bench-multigrid --study vcycle --dims 2,3 --degrees 1 --dofs 1e8 --precisions double,float --cycles 10 -o $R/vcycle-$b-$round.json --overwrite > $L/vcycle-$b-$round.txt 2>&1
    echo "vcycle $b $round exit $?" >> $R/session.log
  done
done
for b in t f; do
  timeout 200 build-$b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-$b.json --overwrite > $L/fmg-$b.txt 2>&1
  echo "fmg $b exit $? $(grep -E '^ *3 +1 ' $L/fmg-$b.txt | tr -s ' ' | tr '\n' ';' | cut -c1-600)" >> $R/session.log
done
stamp solves
for b in p f; do
  for prec in mixed double; do
    name="poisson-q1-455M-$prec-$b"
    timeout 90 build-$b/drivers/tensormg-poisson --dim 3 -k 1 --cells 3 -r 8 --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
    echo "$name exit $? | $(grep -E '^  (DoFs|iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
  done
done
for run in 1 2; do
  (cd .device && timeout 120 python3 cg_anchor.py 3 1 200) > $R/cg_anchor-3-1-200-$run.txt 2>&1; echo "anchor $run exit $? $(tail -2 $R/cg_anchor-3-1-200-$run.txt | tr '\n' '|')" >> $R/session.log
done
for spec in "fmg --precision mixed" "fmg --precision double" "cg --preconditioner jacobi" "cg --preconditioner mg --precision mixed"; do
  name="q1-200-$(echo "$spec" | tr -d ' -')"
  timeout 60 build-f/drivers/tensormg-poisson --dim 3 -k 1 --cells 25 -r 3 --solver $spec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
  echo "$name exit $? | $(grep -E '^  (DoFs|iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
done
stamp ncu
export PATH=$PATH:$(ls -d /usr/local/cuda*/bin 2>/dev/null | head -1)
mkdir -p $R/ncu
KERNEL=LaplaceQ1Gather PRECISION=double timeout 150 bash perf/profile_operator.sh build-f $R/ncu 3 1 > $L/ncu-op-double.log 2>&1
mv $R/ncu/ncu-3d-k1.txt $R/ncu/ncu-gather-3d-k1-double.txt 2>/dev/null; echo "ncu operator exit $?" >> $R/session.log
for prec in double float; do
  PRECISION=$prec timeout 200 bash perf/profile_smoother.sh build-f $R/ncu 3 1 > $L/ncu-sm-$prec.log 2>&1
  mv $R/ncu/ncu-smoother-3d-k1.txt $R/ncu/ncu-smoother-3d-k1-$prec.txt 2>/dev/null
  mv $R/ncu/ncu-smoother-stalls-3d-k1.txt $R/ncu/ncu-smoother-stalls-3d-k1-$prec.txt 2>/dev/null
  echo "ncu smoother $prec exit $?" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
