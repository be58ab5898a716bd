#!/usr/bin/env bash
# Device call g1 (2026-12-04, stop 53): the vector sweeps (core/vector_sweeps.hpp, 93ea8ce + the
# host path) against 02ab4ca ("old": Kokkos Kernels' dot, CG's residual update as a Kokkos range
# reduction). tensormg-ceilings (the sweeps' GB/s beside the copy bandwidth); CUDA tests of
# test_core, test_krylov, test_bake_off; memcheck of the sweep tests; bake-off A/B, fused and
# textbook CG, two rounds alternating old/new/new/old; low-order fused CG A/B likewise.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g1.tar.xz
B=build-g
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp ceilings
timeout 90 $B/perf/tensormg-ceilings -o $R/ceilings.json --overwrite > $L/ceilings.txt 2>&1
echo "ceilings exit $?" >> $R/session.log
C=$R/ceilings.json; [ -s $C ] || C=$B/ceilings.json
stamp tests
for t in test_core test_krylov test_bake_off; do
  timeout 120 $B/tests/$t --gtest_filter='*Cuda*:*VectorSweeps*:BakeOffNames*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_core --gtest_filter='*VectorSweeps/Cuda*:*VectorSweeps*Cuda*' > $L/memcheck.txt 2>&1
echo "memcheck exit $? $(grep -E 'ERROR SUMMARY|PASSED' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log
stamp ab-bp
ARGS="--problems bp1.0,bp3.5,bp3.0 --geometry stored,trilinear --degrees 2,3,4,5,6,7,8 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --cg-variant fused,textbook --ceilings $C"
for run in old-a new-a new-b old-b; do
  late "bp $run" 380 && continue
  timeout 100 $B/perf/tensormg-bench-bp-${run%-*} $ARGS -o $R/bp-$run.json --overwrite > $L/bp-$run.txt 2>&1
  echo "bp $run exit $?" >> $R/session.log
  stamp "bp $run"
done
LARGS="--problems laplace,elasticity --dofs 1e7 --renumber --operators mf,spmv --geometry on-the-fly --scatter atomic --repeats 10 --cg-iterations 20 --ceilings $C"
for run in old-a new-a new-b old-b; do
  late "lo $run" 470 && continue
  timeout 60 $B/perf/tensormg-bench-loworder-${run%-*} $LARGS -o $R/lo-$run.json --overwrite > $L/lo-$run.txt 2>&1
  echo "loworder $run exit $?" >> $R/session.log
  stamp "lo $run"
done
stamp poisson
(cd .device && timeout 100 python3 cg_anchor.py 3 2 96) > $R/cg_anchor-3-2-96.txt 2>&1; echo "anchor exit $? $(tail -2 $R/cg_anchor-3-2-96.txt | tr '\n' '|')" >> $R/session.log
for run in old-a new-a new-b old-b; do
  for spec in "cg --preconditioner jacobi" "cg --preconditioner mg --precision mixed" "fmg --precision mixed"; do
    late "poisson $run" 560 && continue
    name="q2-96-$(echo "$spec" | tr -d ' -')-$run"
    timeout 40 $B/drivers/tensormg-poisson-${run%-*} --dim 3 -k 2 --cells 3 -r 5 --solver $spec --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $L/$name.txt 2>&1
    echo "$name exit $? | $(grep -E '^  (iterations|solve time|setup time)' $L/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log
  done
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
