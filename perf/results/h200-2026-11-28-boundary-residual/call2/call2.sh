#!/usr/bin/env bash
# Device call 2 (2026-11-28): clean build with the new defaults (boundary residual on every row,
# float team shapes): tests + sanitizer, the A/B of full against the defaults, FMG and solves.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$OUT/r; mkdir -p $R
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/bins.tar.xz
B=build-cuda
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $R/env.txt 2>&1
stamp tests
for t in test_vertex_patch test_multigrid test_tuning_tables; do
  timeout 120 $B/tests/$t --gtest_filter="*Cuda*:TuningTables*" > $R/$t.txt 2>&1; echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED)' $R/$t.txt | tr '\n' ' ')" | tee -a $R/session.log
done
for np in 1 2; do
  timeout 120 mpiexec -n $np --oversubscribe $B/tests/test_multigrid_ranks --gtest_filter='*/Cuda.*' > $R/test_multigrid_ranks-np$np.txt 2>&1; echo "test_multigrid_ranks np$np exit $? $(grep -E '^\[  (PASSED|FAILED)' $R/test_multigrid_ranks-np$np.txt | tr '\n' ' ')" | tee -a $R/session.log
done
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
stamp smoother
timeout 120 $B/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --precisions double,float --patch-residuals full,auto --repeats 5 --ceilings $C -o $R/smoother-3d.json --overwrite > $R/smoother-3d.txt 2>&1; grep -v '^#' $R/smoother-3d.txt >> $R/session.log
timeout 90 $B/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 4,6,7 --dofs 3e7 --precisions float --patch-residuals boundary --patches-per-team 0,1,2,3,4,8 --repeats 5 --ceilings $C -o $R/smoother-3d-float-ppt.json --overwrite > $R/smoother-3d-float-ppt.txt 2>&1; grep -v '^#' $R/smoother-3d-float-ppt.txt >> $R/session.log
stamp vcycle
timeout 60 $B/perf/tensormg-bench-multigrid --study vcycle --dims 3 --degrees 1,3,7 --dofs 5e7 --precisions double,float --patch-residuals full,auto --cycles 10 -o $R/vcycle-3d.json --overwrite > $R/vcycle-3d.txt 2>&1; grep -v '^#' $R/vcycle-3d.txt >> $R/session.log
stamp fmg
timeout 150 $B/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --patch-residuals full,auto --max-dofs 1.4e8 --problem one --repeats 3 -o $R/fmg-3d.json --overwrite > $R/fmg-3d.txt 2>&1; grep -v '^#' $R/fmg-3d.txt >> $R/session.log
stamp solves
P=$B/drivers/tensormg-poisson
for spec in "-k 7 --cells 3 -r 5" "-k 3 --cells 3 -r 6" "-k 1 --cells 3 -r 8"; do
  for res in full auto; do
    name="poisson-$(echo "$spec" | tr -d ' -')-mixed-$res"
    timeout 60 $P --dim 3 $spec --solver fmg --precision mixed --problem one --rtol 1e-9 --patch-residual $res --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
    echo "$name exit $? | $(grep -E '^  (iterations|solve time|setup time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" | tee -a $R/session.log
  done
done
timeout 60 $P --dim 3 -k 7 --cells 3 -r 5 --solver fmg --precision mixed --problem sine --rtol 1e-9 --record $R/poisson-k7cells3r5-mixed-sine.json --overwrite > $R/poisson-k7cells3r5-mixed-sine.txt 2>&1; echo "sine exit $? | $(grep -E 'L2|error|solve time' $R/poisson-k7cells3r5-mixed-sine.txt | tr -s ' ' | tr '\n' '|')" | tee -a $R/session.log
stamp sanitizers
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $B/tests/test_vertex_patch --gtest_filter='*Cuda.BoundaryResidual*:*Cuda.EveryDegreeFloat*' > $R/$tool-vertex-patch.txt 2>&1; echo "$tool exit $? $(grep 'ERROR SUMMARY\|RACECHECK SUMMARY' $R/$tool-vertex-patch.txt | sort | uniq -c | tr '\n' ' ')" | tee -a $R/session.log
done
stamp done
tar cJf $OUT/call2.tar.xz -C $OUT r && rm -rf $R
