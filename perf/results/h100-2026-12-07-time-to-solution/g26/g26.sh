#!/usr/bin/env bash
# Device call g26 (2026-12-07, session 66), binaries of 8953806 (new) unless named:
# (1) mixed FMG's start below the finest level by float corrections (--mixed-start corrections)
#     against double cycles (the automatic start), and new against g24 (c199c60: before the
#     V-cycle's fused Q1 residual); two rounds alternating.
# (2) the 3D k = 3 float smoothing kernel's launch bound, the kernel that keeps Q3 mixed FMG at
#     1.2x: 4 teams of 256 (64 registers, the row) against 5 (51) and 6 (42): -v5 / -v6 differ
#     from new in vertex_patch_3d_k1_2_3 only (row field float_min_teams_per_sm); Nsight Compute
#     of the fused k = 3 kernel in double and float.
# (3) the continuous operator after the host SIMD work moved the cell kernel's steps into
#     CellSteps: bench-operator -old (6a33f6b, before it) against new.
# (4) the smoothing step k = 2..7 (new), kernel timer Q3, Cuda tests, memcheck.
set -u
R=$OUT/r; mkdir -p $R/solves $R/timer $R/bench $R/ncu
for f in .device/*.tar.xz; do tar xJf $f; done
t0=$(date +%s)
late() { [ $(( $(date +%s) - t0 )) -gt $1 ] && { echo "skipped $2 (time)" >> $R/session.log; return 0; }; return 1; }
( sleep 555; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
B=build-cuda
C=perf/results/h100-2026-11-21/ceilings.json
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && C=perf/results/h200-2026-11-21-first-kernel/ceilings.json
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  setup time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  L2 error' $R/solves/$name.txt | awk '{print " L2", $3}')" >> $R/solves.txt
}
# (1)
for round in a b; do
  for bin in g24 new; do
    [ $bin = new ] && P=$B/drivers/tensormg-poisson || P=$B/drivers/tensormg-poisson-$bin
    for spec in "-k 1 -r 9" "-k 3 -r 7" "-k 7 -r 6"; do
      n=$(echo "$spec" | tr -d ' -')
      for prec in double mixed; do
        run "cg$n-fmg-$prec-$bin-$round" $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
      done
      [ $bin = new ] && run "cg$n-fmg-mixedcorr-$bin-$round" $P --dim 3 $spec --solver fmg --precision mixed --mixed-start corrections --problem one --rtol 1e-9 --repeat 3
    done
    run "cgk1r9-vcycle-mixed-$bin-$round" $P --dim 3 -k 1 -r 9 --solver vcycle --precision mixed --problem one --rtol 1e-9 --repeat 3
    run "cgk1r9-vcycle-double-$bin-$round" $P --dim 3 -k 1 -r 9 --solver vcycle --precision double --problem one --rtol 1e-9 --repeat 3
  done
  echo "round $round done $(date +%T)" >> $R/session.log
done
# (2)
for round in a b; do
  for v in new v5 v6; do
    [ $v = new ] && M=$B/perf/tensormg-bench-multigrid || M=$B/perf/tensormg-bench-multigrid-$v
    timeout 60 $M --study smoother --dims 3 --degrees 3 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/bench/smoother-k3-$v-$round.json --overwrite > $R/bench/smoother-k3-$v-$round.txt 2>&1
    echo "smoother k3 $v $round exit $? $(date +%T)" >> $R/session.log
    [ $v = new ] && P=$B/drivers/tensormg-poisson || P=$B/drivers/tensormg-poisson-$v
    run "cgk3r7-fmg-mixed-$v-v$round" $P --dim 3 -k 3 -r 7 --solver fmg --precision mixed --problem one --rtol 1e-9 --repeat 3
    run "cgk3r6-vcycle-mixed-$v-v$round" $P --dim 3 -k 3 -r 6 --solver vcycle --precision mixed --problem one --rtol 1e-9 --repeat 3
  done
done
for p in double float; do
  late 330 "ncu $p" && break
  DOFS=3e7 PRECISION=$p timeout 60 bash perf/profile_smoother.sh $B $R/ncu 3 3 > $R/ncu/summary-$p.txt 2>&1
  for f in $R/ncu/ncu-smoother-3d-k3.txt $R/ncu/ncu-smoother-stalls-3d-k3.txt; do mv $f ${f%.txt}-$p.txt 2>/dev/null; done
  echo "ncu k3 $p done $(date +%T)" >> $R/session.log
done
# (3)
for bin in old new; do
  late 400 "operator $bin" && break
  [ $bin = new ] && O=$B/perf/tensormg-bench-operator || O=$B/perf/tensormg-bench-operator-old
  timeout 60 $O --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 6e7 --precisions double --ceilings $C --spmv-max-gib 0 --repeats 10 -o $R/bench/operator-$bin.json --overwrite > $R/bench/operator-$bin.txt 2>&1
  echo "operator $bin exit $? $(date +%T)" >> $R/session.log
done
# (4)
late 430 "tests" || for t in test_laplace_operator test_multigrid; do
  timeout 60 $B/tests/$t --gtest_filter='*/Cuda.*' > $R/$t.txt 2>&1
  echo "$t exit $? $(grep -a -E 'PASSED|FAILED' $R/$t.txt | tail -2 | tr '\n' ' ')" >> $R/session.log
done
late 470 "smoother default" || { timeout 50 $B/perf/tensormg-bench-multigrid --study smoother --dims 3 --degrees 2,3,4,5,6,7 --dofs 3e7 --precisions double,float --repeats 5 --ceilings $C -o $R/bench/smoother-default.json --overwrite > $R/bench/smoother-default.txt 2>&1; echo "smoother default exit $? $(date +%T)" >> $R/session.log; }
for m in "double" "mixed"; do
  late 510 "timer $m" && break
  KOKKOS_PROFILE_LIBRARY=$B/perf/libtensormg-kernel-timer.so TENSORMG_KERNEL_TIMER_OUT=$R/timer/qk3r7-$m-table.txt \
    timeout 30 $B/drivers/tensormg-poisson --dim 3 -k 3 -r 7 --solver fmg --precision $m --problem one --rtol 1e-9 > $R/timer/qk3r7-$m-timed.txt 2>&1
  echo "timer qk3r7 $m exit $?" >> $R/session.log
done
late 530 "memcheck" || { timeout 40 compute-sanitizer --tool memcheck --print-limit 100 --error-exitcode 9 $B/tests/test_laplace_operator --gtest_filter='*/Cuda.Residual*:*/Cuda.MatchesAssembledMatrixForAllDegrees3D' > $R/memcheck-test_laplace_operator.txt 2>&1; echo "memcheck test_laplace_operator exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/memcheck-test_laplace_operator.txt)" >> $R/session.log; }
echo "end $(( $(date +%s) - t0 )) s" >> $R/session.log
cd $OUT && tar cJf r.tar.xz r && rm -rf r
