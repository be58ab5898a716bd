#!/usr/bin/env bash
# Device call 4: the DG patch block kernel's team for blocks of 16 (two teams per SM, 96 KB each):
# 256 threads (build-cuda, the final kernel) against 512 (build-c, 64 registers) and 384
# (build-d, 85 registers); one smoothing step, k = 5, 6, 7, two rounds in alternating order.
set -u
R=$OUT/r; mkdir -p $R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
for t in .device/b4.tar.xz .device/c4.tar.xz .device/d4.tar.xz; do [ -f $t ] && tar xJf $t; done
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
L=$R/logs; C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp smoother
for round in a b; do
  order="build-cuda build-c build-d"; [ $round = b ] && order="build-d build-c build-cuda"
  for v in $order; do
    [ -x $v/perf/tensormg-bench-multigrid ] || continue
    timeout 100 $v/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 5,6,7 --dofs 3e7 --dg-contractions blocks --precisions double --repeats 10 --ceilings $C -o $R/smoother-$v-$round.json > $L/smoother-$v-$round.txt 2>&1
    echo "smoother $v $round exit $?" | tee -a $R/session.log; grep -E "^  3" $L/smoother-$v-$round.txt | awk '{print $2, $4, $11}' | tr '\n' ';' | tee -a $R/session.log; echo | tee -a $R/session.log
  done
done
stamp done
