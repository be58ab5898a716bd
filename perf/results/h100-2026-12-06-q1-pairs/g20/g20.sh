#!/usr/bin/env bash
# Device call g20 (2026-12-06, session 64): the k = 1 smoother's colour pairs in one launch
# (VertexPatchQ1PairKernel, second version: lines in registers, planes loaded a step ahead, segments of >= 4 vertices; colours in the order of patch_color) against 91aaf2b (-base) in the same
# call, two rounds alternating: one smoothing step and one V-cycle at Q1 (2D, 3D, ~1e8 DoFs, double
# and float), FMG to 1e-9 (3D Q1 r9, Q3 r7, Q7 r6) double and mixed; Cuda tests and
# compute-sanitizer memcheck / synccheck of the new test.
set -u
R=$OUT/r; mkdir -p $R/solves $R/bench
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
for t in test_vertex_patch test_multigrid; do
  timeout 300 build-cuda/tests/$t --gtest_filter='*/Cuda.*:PatchColor*' > $R/$t.txt 2>&1
  echo "$t exit $? $(grep -a -E 'PASSED|FAILED' $R/$t.txt | tail -3 | tr '\n' ' ')" >> $R/session.log
done
for tool in memcheck synccheck; do
  timeout 200 compute-sanitizer --tool $tool --print-limit 1000 --error-exitcode 9 build-cuda/tests/test_vertex_patch --gtest_filter='*/Cuda.PerPatchQ1*' > $R/$tool-test_vertex_patch.txt 2>&1
  echo "$tool test_vertex_patch PerPatchQ1* exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/$tool-test_vertex_patch.txt)" >> $R/session.log
done
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 100 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  L2 error|relative true' $R/solves/$name.txt | sed 's/  */ /g' | tr '\n' ' ')" >> $R/solves.txt
}
for round in a b; do
  for bin in base new; do
    [ $bin = new ] && S= || S=-base
    for study in smoother vcycle; do
      timeout 120 build-cuda/perf/tensormg-bench-multigrid$S --study $study --dims 2,3 --degrees 1 --dofs 1e8 --precisions double,float --repeats 5 --cycles 10 -o $R/bench/$study-$bin-$round.json --overwrite > $R/bench/$study-$bin-$round.txt 2>&1
      echo "$study $bin $round exit $?" >> $R/session.log
    done
    timeout 60 build-cuda/perf/tensormg-bench-multigrid$S --study smoother --dims 2,3 --degrees 1 --dofs 1e6 --precisions double,float --repeats 5 -o $R/bench/smoother1e6-$bin-$round.json --overwrite > $R/bench/smoother1e6-$bin-$round.txt 2>&1
    echo "smoother1e6 $bin $round exit $?" >> $R/session.log
    P=build-cuda/drivers/tensormg-poisson$S
    for spec in "--dim 3 -k 1 -r 9" "--dim 3 -k 3 -r 7" "--dim 3 -k 7 -r 6"; do
      for prec in double mixed; do
        run "$(echo "$spec" | tr -d ' -')-fmg-$prec-$bin-$round" $P $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
      done
    done
  done
  echo "round $round done $(date +%T)" >> $R/session.log
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
