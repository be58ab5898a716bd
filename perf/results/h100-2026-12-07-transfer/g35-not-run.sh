#!/usr/bin/env bash
# Device call for d29c55c, planned as g35 (2026-12-07, session 68) and widened as g36 (session 69: k = 7 too, longer time guards); neither ran (no machine); nor in session 70 (2026-12-08: the device budget went to failed starts). The parent-cell transfer moving 4 points a thread at
# once, loads before stores (new, see commit.txt) against 8a12a0e (v3, one point at a time).
# (1) Cuda test_multigrid + memcheck of the transfer tests; (2) ncu of one V-cycle's transfer
# launches, 3D k = 3 (57M) and k = 7 (90.5M), float and double; (3) V-cycle by component; (4) FMG
# Q2..Q7 double and mixed, two rounds alternating.
set -u
R=$OUT/r; mkdir -p $R/solves $R/bench $R/ncu
for f in .device/bin36*.tar.xz; do tar xJf $f; done
t0=$(date +%s)
late() { [ $(( $(date +%s) - t0 )) -gt $1 ] && { echo "skipped $2 (time)" >> $R/session.log; return 0; }; return 1; }
( sleep ${WATCH:-540}; cd $OUT && tar cJf r-partial.tar.xz r ) & watchdog=$!  # WATCH: seconds before the partial archive
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
B=build-cuda
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g; s/ (median of 3[^)]*)//') |$(grep -E 'relative true residual' $R/solves/$name.txt | sed 's/  */ /g')" >> $R/solves.txt
}
bench() { [ $1 = new ] && echo $B/perf/tensormg-bench-multigrid || echo $B/perf/tensormg-bench-multigrid-$1; }
timeout 120 $B/tests/test_multigrid --gtest_filter='*Cuda*' > $R/test_multigrid.txt 2>&1
echo "test_multigrid exit $? $(grep -aE '^\[  (PASSED|FAILED)' $R/test_multigrid.txt | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >> $R/session.log
timeout 120 compute-sanitizer --tool memcheck $B/tests/test_multigrid --gtest_filter='*Cuda*Transfer*:*Cuda*Restriction*:*Cuda*Prolongation*:*Cuda*MeshIndependent*' > $R/memcheck-transfer.txt 2>&1
echo "memcheck transfer tests exit $? $(grep -aE 'ERROR SUMMARY' $R/memcheck-transfer.txt) $(( $(date +%s) - t0 )) s" >> $R/session.log
for k in 3 7; do
  for bin in v3 new; do
    for p in float double; do
      late 200 "ncu k$k $bin $p" && continue
      timeout 60 ncu --kernel-name-base demangled --kernel-name regex:ParentCellTransfer --launch-count 12 \
        --section SpeedOfLight --section LaunchStats \
        $(bench $bin) --study vcycle --dims 3 --degrees $k --dofs 1e8 --precisions $p --cycles 1 > $R/ncu/transfer-k$k-$p-$bin.txt 2>&1
      awk -v tag="k$k $p $bin" '/Duration/ {d=$NF; u=$(NF-1)} /  Grid Size/ {g=$NF; printf "%s launch %d grid %s duration %s %s\n", tag, ++n, g, d, u}' $R/ncu/transfer-k$k-$p-$bin.txt >> $R/ncu/launches.txt
    done
  done
done
echo "ncu done $(( $(date +%s) - t0 )) s" >> $R/session.log
for bin in v3 new; do
  late 260 "vcycle $bin" && break
  timeout 60 $(bench $bin) --study vcycle --dims 3 --degrees 2,3,4,7 --dofs 1e8 --precisions double,float --cycles 10 > $R/bench/vcycle-$bin.txt 2>&1
done
for round in a b; do
  late 330 "fmg $round" && break
  for bin in v3 new; do
    [ $bin = new ] && P=$B/drivers/tensormg-poisson || P=$B/drivers/tensormg-poisson-$bin
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
cat $R/session.log; grep -E "grid (16,384|32,768) " $R/ncu/launches.txt; grep -h "s/cycle" $R/bench/vcycle-*.txt; cat $R/solves.txt
kill $watchdog 2>/dev/null
cd $OUT && tar cJf r.tar.xz r && rm -rf r r-partial.tar.xz
