#!/usr/bin/env bash
# Device call 1 (issue 18): low-order Q1 operators on the H100. Tests on Cuda + compute-sanitizer
# memcheck; the benchmark (every matrix-free variant, KokkosSparse SpMV, NoOp-SpMV, fused CG) at
# 1e6 and 1e7 DoFs with the matrices exported; cuSPARSE SpMV (CuPy) on exactly those matrices;
# the mesh's random numbering against the Morton ordering; the Cartesian cuSPARSE anchor.
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R/logs $R/csr
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; cat build-cuda/COMMIT; nproc; } > $R/env.txt 2>&1
B=build-cuda; L=$R/logs; CEIL=perf/results/h100-2026-11-25-bp/call3-prefetch/ceilings.json
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*" >> $R/log.txt; }
timeout 40 $B/tests/test_low_order --gtest_filter='*/Cuda.*' > $L/test_low_order.txt 2>&1; stamp "test_low_order rc=$?"
grep -hE "PASSED|FAILED" $L/test_low_order.txt >> $R/log.txt
timeout 20 $B/tests/test_hex_mesh > $L/test_hex_mesh.txt 2>&1; stamp "test_hex_mesh rc=$? $(grep -E 'PASSED|FAILED' $L/test_hex_mesh.txt | tr '\n' ' ')"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 90 $CS --tool memcheck --error-exitcode 9 $B/tests/test_low_order --gtest_filter='*/Cuda.KernelEquals*:*/Cuda.MatrixFree*' > $L/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ') $(grep -E 'PASSED|FAILED' $L/memcheck.txt | tr '\n' ' ')"
timeout 290 $B/perf/tensormg-bench-loworder --dofs 1e6,1e7 --renumber --repeats 10 --cg-iterations 20 \
  --ceilings $CEIL --export-csr $R/csr -o $R/bench.json > $L/bench.txt 2>&1
stamp "bench rc=$?"; cat $L/bench.txt >> $R/log.txt
timeout 80 python3 perf/cusparse_spmv.py --repeats 20 -o $R/cusparse.json $(ls $R/csr/*.json | sed 's/\.json$//') > $L/cusparse.txt 2>&1
stamp "cusparse rc=$?"; cat $L/cusparse.txt >> $R/log.txt
rm -rf $R/csr
timeout 60 $B/perf/tensormg-bench-loworder --problems laplace --dofs 1e7 --renumber --ordering mesh --operators mf,spmv \
  --geometry on-the-fly --scatter atomic --evaluation factorized --repeats 10 --cg-iterations 20 --ceilings $CEIL \
  -o $R/bench-mesh-order.json > $L/bench-mesh-order.txt 2>&1
stamp "bench mesh order rc=$?"; cat $L/bench-mesh-order.txt >> $R/log.txt
timeout 40 python3 .device/spmv_anchor.py 3 1 199 > $L/anchor.txt 2>&1
stamp "anchor rc=$?"; cat $L/anchor.txt >> $R/log.txt
tar czf $R/logs.tgz -C $R logs && rm -rf $R/logs
stamp done
