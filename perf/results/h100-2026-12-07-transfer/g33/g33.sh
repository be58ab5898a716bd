#!/usr/bin/env bash
# Device call g33 (2026-12-07, session 68): the parent-cell transfer, final. Binaries: old (de34da1), v1
# (5aa8e7c: compile-time sizes, FastDivisor, thread per point), rows (c21c561: thread per row),
# new (v3: thread per point with a table of the team's parents, first indices of owned cells;
# its level-1 scratch stride a multiple of 16 after g31's misaligned-address failure at 3D k >= 7
# in double). Only old and new are in this call.
# (1) Cuda transfer tests + memcheck; (2) Nsight Compute: every ParentCellTransfer launch of one
# V-cycle (3D k = 3 at 57M DoFs, k = 7 at 90.5M; float and double), duration and grid per launch;
# (3) V-cycle by component old / new; (4) FMG Q2..Q7 old / new, two rounds alternating.
set -u
R=$OUT/r; mkdir -p $R/solves $R/bench $R/ncu
for f in .device/bin33*.tar.xz; do tar xJf $f; done
t0=$(date +%s)
late() { [ $(( $(date +%s) - t0 )) -gt $1 ] && { echo "skipped $2 (time)" >> $R/session.log; return 0; }; return 1; }
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) & watchdog=$!
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
B=build-cuda
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  setup time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E 'relative true residual' $R/solves/$name.txt | sed 's/  */ /g')" >> $R/solves.txt
}
bench() { [ $1 = new ] && echo $B/perf/tensormg-bench-multigrid || echo $B/perf/tensormg-bench-multigrid-$1; }
# (1)
timeout 120 $B/tests/test_multigrid --gtest_filter='*Cuda*' > $R/test_multigrid.txt 2>&1
echo "test_multigrid exit $? $(grep -aE '^\[  (PASSED|FAILED)' $R/test_multigrid.txt | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >> $R/session.log
timeout 120 compute-sanitizer --tool memcheck $B/tests/test_multigrid --gtest_filter='*Cuda*Transfer*:*Cuda*Restriction*:*Cuda*Prolongation*:*Cuda*MeshIndependent2D*' > $R/memcheck-transfer.txt 2>&1
echo "memcheck transfer tests exit $? $(grep -aE 'ERROR SUMMARY' $R/memcheck-transfer.txt) $(( $(date +%s) - t0 )) s" >> $R/session.log
# (2)
for spec in "3 1e8" "7 1e8"; do
  set -- $spec; k=$1; dofs=$2
  for bin in old new; do
    for p in float double; do
      late 150 "ncu k$k $bin $p" && continue
      timeout 90 ncu --kernel-name-base demangled --kernel-name regex:ParentCellTransfer --launch-skip 0 --launch-count 26 \
        --section SpeedOfLight --section LaunchStats \
        $(bench $bin) --study vcycle --dims 3 --degrees $k --dofs $dofs --precisions $p --cycles 1 > $R/ncu/transfer-k$k-$p-$bin.txt 2>&1
      echo "ncu k$k $bin $p exit $? $(( $(date +%s) - t0 )) s" >> $R/session.log
      awk -v tag="k$k $p $bin" '/Duration/ {d=$NF; u=$(NF-1)} /  Grid Size/ {g=$NF; printf "%s launch %d grid %s duration %s %s\n", tag, ++n, g, d, u}' $R/ncu/transfer-k$k-$p-$bin.txt >> $R/ncu/launches.txt
    done
  done
done
# (3)
for round in a b; do
  late 330 "vcycle $round" && break
  for bin in old new; do
    timeout 100 $(bench $bin) --study vcycle --dims 3 --degrees 2,3,4,7 --dofs 1e8 --precisions double,float --cycles 10 \
      -o $R/bench/vcycle-$bin-$round.json --overwrite > $R/bench/vcycle-$bin-$round.txt 2>&1
    echo "vcycle $bin $round exit $? $(( $(date +%s) - t0 )) s" >> $R/session.log
    timeout 60 $(bench $bin) --study vcycle --dims 2 --degrees 3,7 --dofs 1e8 --precisions double,float --cycles 10 \
      -o $R/bench/vcycle2d-$bin-$round.json --overwrite > $R/bench/vcycle2d-$bin-$round.txt 2>&1
  done
done
# (4)
for round in a b; do
  late 450 "fmg $round" && break
  for bin in old new; do
    [ $bin = new ] && P=$B/drivers/tensormg-poisson || P=$B/drivers/tensormg-poisson-old
    for spec in "-k 3 -r 7" "-k 7 -r 6" "-k 2 -r 8" "-k 4 -r 7" "-k 5 -r 6"; do
      n=$(echo "$spec" | tr -d ' -')
      for prec in double mixed; do
        run "$n-fmg-$prec-$bin-$round" $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
      done
    done
  done
  echo "fmg round $round done $(( $(date +%s) - t0 )) s" >> $R/session.log
done
echo "done $(( $(date +%s) - t0 )) s" >> $R/session.log
cat $R/session.log; grep -E "grid (16,384|32,768) " $R/ncu/launches.txt; grep -h "s/cycle" $R/bench/vcycle*-a.txt; cat $R/solves.txt | sed 's/ (median of 3[^)]*)//'
kill $watchdog 2>/dev/null
cd $OUT && tar cJf r.tar.xz r && rm -rf r r-partial.tar.xz
