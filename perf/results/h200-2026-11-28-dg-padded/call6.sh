#!/usr/bin/env bash
# Device call 6: the FGMRES precision study of paper 001 §7 on the H200 with the final DG block
# kernel (0ec5535): Q3 (134M), Q5 (56.6M), Q6 (89.9M), Q7 (134M), two rounds; the PNGs of this
# study and of the padded-block record (matplotlib is here).
set -u
R=$OUT/r; mkdir -p $R/records
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/b6.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
P=build-cuda/drivers/tensormg-poisson
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
solve() {  # name, args...
  local name=$1; shift
  timeout 45 $P --discretization dg --dim 3 --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --record $R/records/$name.json "$@" > $R/records/$name.txt 2>&1
  echo "$name rc=$? $(grep -E 'solve time|L2 error|iterations' $R/records/$name.txt | tr -s ' ' | tr '\n' ';' | cut -c1-200)" >> $R/session.log
}
stamp study
for round in a b; do
  for v in "fp64-cc double lines" "fp64-tc double blocks" "fp32 mixed lines" "fp16 mixed f16" "fp16ec mixed f16ec"; do
    set -- $v; solve q3-r7-$1-$round -k 3 -r 7 --precision $2 --contraction $3
  done
  for k in 5 6 7; do
    extra=""; [ $k = 7 ] && extra="--restart 10"
    for v in "fp64-cc double lines" "fp64-tc double blocks" "fp32 mixed lines"; do
      set -- $v; solve q$k-r6-$1-$round -k $k -r 6 --precision $2 --contraction $3 $extra
    done
  done
done
stamp plots
python3 perf/precision_study.py $R/records/*.json --markdown $R/study.md --png $R/fgmres-precision.png >> $R/session.log 2>&1; echo "precision_study rc=$?" >> $R/session.log
D=perf/results/h200-2026-11-28-dg-padded
python3 perf/dg_block_plots.py --smoother "four buffers=$D/call1/smoother-build-a-a.json,$D/call1/smoother-build-a-b.json" --smoother "three buffers, 256=$D/call1/smoother-build-cuda-a.json,$D/call1/smoother-build-cuda-b.json" --smoother "final, 384=$D/call5/smoother-a.json,$D/call5/smoother-b.json" --operator "four buffers=$D/call3/operator-build-a.json" --operator "three buffers=$D/call3/operator-build-cuda.json" --png $R/dg-blocks.png > /dev/null 2>> $R/session.log; echo "dg_block_plots rc=$?" >> $R/session.log
tar czf $R/records.tgz -C $R records && rm -rf $R/records
stamp done
