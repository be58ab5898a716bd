#!/usr/bin/env bash
# Device call g6 (2026-11-29): the final tuning rows (build-c, commit in commit.txt): Cuda tests +
# memcheck of test_vertex_patch, test_bake_off, test_laplace_operator; the BP sweep with the
# defaults (k = 1..8, 2e7 DoFs, FP64, CG 20 iterations); one smoothing step 3D k = 1..8 FP64/FP32;
# FMG 3D k = 1, 3, 7 double/mixed.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g6.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_vertex_patch test_bake_off test_laplace_operator; do
  timeout 400 build-c/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 300 $CS --tool memcheck build-c/tests/test_vertex_patch --gtest_filter='*Cuda.EveryDegreeDefault*' > $L/memcheck-vp.txt 2>&1; echo "memcheck vp exit $? $(tail -1 $L/memcheck-vp.txt)" >> $R/session.log
timeout 300 $CS --tool memcheck build-c/tests/test_bake_off --gtest_filter='*Cuda.ElementKernels*' > $L/memcheck-bp.txt 2>&1; echo "memcheck bp exit $? $(tail -1 $L/memcheck-bp.txt)" >> $R/session.log
stamp bench
timeout 240 build-c/perf/tensormg-bench-bp --problems bp1.0,bp3.5,bp3.0 --degrees 1,2,3,4,5,6,7,8 --dofs 2e7 --repeats 5 --cg-iterations 20 --ceilings $C -o $R/bp-defaults.json --overwrite > $L/bp-defaults.txt 2>&1
echo "bp exit $?" >> $R/session.log
timeout 200 build-c/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/smoother-3d.json --overwrite > $L/smoother-3d.txt 2>&1
echo "smoother exit $?" >> $R/session.log
timeout 300 build-c/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg.json --overwrite > $L/fmg.txt 2>&1
echo "fmg exit $? $(grep -E '^ *3 +7 ' $L/fmg.txt | tr -s ' ' | tr '\n' ';' | cut -c1-300)" >> $R/session.log
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
