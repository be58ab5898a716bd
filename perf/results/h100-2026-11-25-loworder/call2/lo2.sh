#!/usr/bin/env bash
# Device call 2 (issue 18): the size curve 1e4 .. 2e7 (Laplace) / 1e7 (elasticity) of the main
# variants, and the mesh's random numbering against the Morton ordering at 3e6.
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R/logs
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; cat build-cuda/COMMIT; nproc; } > $R/env.txt 2>&1
B=build-cuda; L=$R/logs; CEIL=perf/results/h100-2026-11-25-bp/call3-prefetch/ceilings.json
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*" >> $R/log.txt; }
V="--geometry on-the-fly,stored --scatter atomic --evaluation factorized,pointwise --repeats 10 --cg-iterations 20 --ceilings $CEIL"
timeout 120 $B/perf/tensormg-bench-loworder --problems laplace,elasticity --dofs 1e4,1e5,3e5,3e6 --renumber $V -o $R/curve-small.json > $L/curve-small.txt 2>&1
stamp "curve small rc=$?"; cat $L/curve-small.txt >> $R/log.txt
for order in mesh morton; do
  timeout 60 $B/perf/tensormg-bench-loworder --problems laplace,elasticity --dofs 3e6 --renumber --ordering $order --operators mf,spmv \
    --geometry on-the-fly --scatter atomic --evaluation factorized --repeats 10 --cg-iterations 20 --ceilings $CEIL \
    -o $R/order-$order.json > $L/order-$order.txt 2>&1
  stamp "order $order rc=$?"; cat $L/order-$order.txt >> $R/log.txt
done
timeout 200 $B/perf/tensormg-bench-loworder --problems laplace --dofs 2e7 --renumber $V -o $R/curve-2e7.json > $L/curve-2e7.txt 2>&1
stamp "curve 2e7 rc=$?"; cat $L/curve-2e7.txt >> $R/log.txt
tar czf $R/logs.tgz -C $R logs && rm -rf $R/logs
stamp done
