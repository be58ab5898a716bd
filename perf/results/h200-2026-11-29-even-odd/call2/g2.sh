#!/usr/bin/env bash
# Device call g2 (2026-11-29): the continuous operator in even-odd form, output pairs not unrolled
# at k >= 5 (build-n, as g1) against fully unrolled (build-u): cells per team swept per degree
# (3D FP64 and FP32, 6e7 DoFs), 2D k = 5..10 (5e7), store-interior scatter; two rounds.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g1.tar.xz; tar xJf .device/g2.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
OBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
for b in n u; do
  $OBJ -res-usage build-$b/perf/tensormg-bench-operator 2>/dev/null | grep -A1 "_ZN7tensormg18CellOperatorKernel" > $L/res-$b.txt
done
B="--scatter store-interior --ceilings $C --spmv-max-gib 0 --repeats 10 --overwrite"
stamp sweep
for round in a b; do
  for b in n u; do
    [ $round = b ] && b=$([ $b = n ] && echo u || echo n)
    for kc in 2:14,28 3:8,16 4:5,10 5:4,5,7 6:3,4,5 7:2,3,4 8:2,3; do
      k=${kc%%:*}; c=${kc#*:}
      P=double; [ $k -ge 5 ] && P=double,float
      timeout 120 build-$b/perf/tensormg-bench-operator --dims 3 --degrees $k --dofs 6e7 --precisions $P --cells-per-team $c $B --output $R/op3d-k$k-$b-$round.json > $L/op3d-k$k-$b-$round.txt 2>&1
      echo "op3d k$k $b $round exit $?" >> $R/session.log
    done
    timeout 200 build-$b/perf/tensormg-bench-operator --dims 2 --degrees 5,6,7,8,9,10 --dofs 5e7 --precisions double $B --output $R/op2d-$b-$round.json > $L/op2d-$b-$round.txt 2>&1
    echo "op2d $b $round exit $?" >> $R/session.log
  done
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
