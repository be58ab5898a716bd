#!/usr/bin/env bash
# Device call 1 (2026-11-28): Boundary residual (paper 000 §4.1.3) A/B, BP fused CG A/B, tests.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$OUT/r; mkdir -p $R
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/bins.tar.xz
B=build-cuda
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; git log -1 --format=%H; } > $R/env.txt 2>&1
stamp tests
timeout 150 $B/tests/test_vertex_patch --gtest_filter='*Cuda*' > $R/test_vertex_patch.txt 2>&1; echo "test_vertex_patch exit $? $(grep -E 'PASSED|FAILED' $R/test_vertex_patch.txt | head -3 | tr '\n' ' ')" | tee -a $R/session.log
timeout 150 $B/tests/test_multigrid --gtest_filter='*Cuda*:-*MeshIndependence*' > $R/test_multigrid.txt 2>&1; echo "test_multigrid exit $? $(grep -E 'PASSED|FAILED' $R/test_multigrid.txt | head -3 | tr '\n' ' ')" | tee -a $R/session.log
timeout 100 $B/tests/test_bake_off --gtest_filter='*Cuda*' > $R/test_bake_off.txt 2>&1; echo "test_bake_off exit $? $(grep -E 'PASSED|FAILED' $R/test_bake_off.txt | head -3 | tr '\n' ' ')" | tee -a $R/session.log
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_vertex_patch --gtest_filter='*Cuda*BoundaryResidual*' > $R/memcheck-boundary.txt 2>&1; echo "memcheck boundary exit $? $(grep 'ERROR SUMMARY' $R/memcheck-boundary.txt)" | tee -a $R/session.log
stamp ceilings
timeout 60 $B/perf/tensormg-ceilings -o $R/ceilings.json --overwrite > $R/ceilings.txt 2>&1; tail -12 $R/ceilings.txt >> $R/session.log
C=$R/ceilings.json
stamp smoother
timeout 150 $B/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --patch-residuals full,boundary --repeats 5 --ceilings $C -o $R/smoother-3d.json --overwrite > $R/smoother-3d.txt 2>&1; cat $R/smoother-3d.txt >> $R/session.log
timeout 80 $B/perf/tensormg-bench-multigrid --study smoother --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 3e7 --precisions double --patch-residuals full,boundary --repeats 5 --ceilings $C -o $R/smoother-2d.json --overwrite > $R/smoother-2d.txt 2>&1; cat $R/smoother-2d.txt >> $R/session.log
timeout 80 $B/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 3,4,5,6,7 --dofs 3e7 --precisions float --patches-per-team 1,2,3,4,6,8 --repeats 5 --ceilings $C -o $R/smoother-3d-float-ppt.json --overwrite > $R/smoother-3d-float-ppt.txt 2>&1; cat $R/smoother-3d-float-ppt.txt >> $R/session.log
stamp vcycle
timeout 90 $B/perf/tensormg-bench-multigrid --study vcycle --dims 3 --degrees 1,3,7 --dofs 5e7 --precisions double,float --patch-residuals full,boundary --cycles 10 -o $R/vcycle-3d.json --overwrite > $R/vcycle-3d.txt 2>&1; cat $R/vcycle-3d.txt >> $R/session.log
stamp fmg
timeout 150 $B/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --patch-residuals full,boundary --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-3d.json --overwrite > $R/fmg-3d.txt 2>&1; cat $R/fmg-3d.txt >> $R/session.log
stamp bp-cg
for v in fused textbook; do
  timeout 75 $B/perf/tensormg-bench-bp --problems bp1.0,bp3.5,bp3.0 --degrees 2,3,4,5,6,7,8 --dofs 2e7 --repeats 3 --cg-iterations 20 --cg-variant $v --ceilings $C -o $R/bp-cg-$v.json --overwrite > $R/bp-cg-$v.txt 2>&1; cat $R/bp-cg-$v.txt >> $R/session.log
done
stamp done
tar cJf $OUT/call1.tar.xz -C $OUT r && rm -rf $R
