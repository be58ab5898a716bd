#!/usr/bin/env bash
# Device call g21 (2026-12-06, session 64): the committed per_line thread structure (de7b146): Cuda
# tests (test_vertex_patch with the per-line tests, test_multigrid),
# compute-sanitizer memcheck of the per-line tests; one smoothing step per patch against per line in
# one binary (k = 1, 2D and 3D, 1e8 and 1e6 DoFs, double and float, two rounds); FMG to 1e-9 with the
# default structure (per patch on the device, colours in the order of patch_color) against 91aaf2b.
set -u
R=$OUT/r; mkdir -p $R/solves $R/bench
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
for t in test_vertex_patch test_multigrid; do
  timeout 300 build-cuda/tests/$t --gtest_filter='*/Cuda.*:PatchColor*:*Tuning*:*tuning*' > $R/$t.txt 2>&1
  echo "$t exit $? $(grep -a -E 'PASSED|FAILED' $R/$t.txt | tail -3 | tr '\n' ' ')" >> $R/session.log
done
timeout 200 compute-sanitizer --tool memcheck --print-limit 1000 --error-exitcode 9 build-cuda/tests/test_vertex_patch --gtest_filter='*/Cuda.PerLine*:*/Cuda.PerPatchQ1*' > $R/memcheck-test_vertex_patch.txt 2>&1
echo "memcheck test_vertex_patch PerLine*/PerPatchQ1* exit $? | $(grep -a -m1 'ERROR SUMMARY' $R/memcheck-test_vertex_patch.txt)" >> $R/session.log
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 100 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  L2 error|relative true' $R/solves/$name.txt | sed 's/  */ /g' | tr '\n' ' ')" >> $R/solves.txt
}
for round in a b; do
  for dofs in 1e8 1e6; do
    timeout 120 build-cuda/perf/tensormg-bench-multigrid --study smoother --dims 2,3 --degrees 1 --dofs $dofs --precisions double,float --thread-structures per-patch,per-line --repeats 5 -o $R/bench/smoother$dofs-$round.json --overwrite > $R/bench/smoother$dofs-$round.txt 2>&1
    echo "smoother $dofs $round exit $?" >> $R/session.log
  done
done
for bin in base new; do
  [ $bin = new ] && S= || S=-base
  P=build-cuda/drivers/tensormg-poisson$S
  for spec in "--dim 3 -k 1 -r 9" "--dim 3 -k 3 -r 7" "--dim 3 -k 7 -r 6"; do
    for prec in double mixed; do
      run "$(echo "$spec" | tr -d ' -')-fmg-$prec-$bin" $P $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
    done
  done
done
echo "done $(date +%T)" >> $R/session.log
cd $OUT && tar cJf r.tar.xz r && rm -rf r
