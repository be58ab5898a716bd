#!/usr/bin/env bash
# Device call f7 (2026-11-29): where the k = 7 DG block kernels stall, by source line: the DG patch
# unit of 3D k = 7, 8 compiled with -lineinfo (otherwise 92bf64a), one launch each of the FP64
# blocks and the float FP16 EC blocks under Nsight Compute with source counters; the stall samples
# summed per CUDA source line (top lines).
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/f7.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
B=build-li/perf/tensormg-bench-multigrid
for v in "fp64 double blocks" "f16ec float f16ec"; do
  set -- $v
  timeout 240 $NCU --kernel-name-base demangled --kernel-name regex:DgPatchBlockKernel --launch-skip 8 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --import-source yes -o $R/rep-$1 \
    $B --study dg-smoother --dims 3 --degrees 7 --dofs 3e7 --dg-contractions $3 --precisions $2 --repeats 1 > $R/ncu-$1.log 2>&1
  echo "ncu $1 exit $?" >> $R/session.log
  $NCU -i $R/rep-$1.ncu-rep --page source --csv --print-source cuda > $R/source-$1.csv 2>> $R/session.log
  echo "source page $1 exit $? lines $(wc -l < $R/source-$1.csv)" >> $R/session.log
  python3 - $R/source-$1.csv >> $R/session.log 2>&1 <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr_i = next(i for i, r in enumerate(rows) if any('Source' in c for c in r))
hdr = rows[hdr_i]
print("columns:", hdr[:12])
def col(name):
    return next(i for i, c in enumerate(hdr) if name in c)
src = col('Source')
line_c = next((i for i, c in enumerate(hdr) if c.strip('# ') in ('Line', 'Line Number')), None)
samp = next(i for i, c in enumerate(hdr) if 'Warp Stall Sampling (All' in c)
data = []
for r in rows[hdr_i + 1:]:
    if len(r) <= samp: continue
    try: v = float(r[samp].replace(',', ''))
    except ValueError: continue
    data.append((v, r[line_c] if line_c is not None else '', r[src].strip()[:110]))
tot = sum(d[0] for d in data) or 1
print("total samples", tot)
for v, ln, s in sorted(data, reverse=True)[:25]:
    print("%5.1f%%  %s  %s" % (100 * v / tot, ln, s))
PY
  rm -f $R/source-$1.csv
done
grep -h -A3 "Warp Stall Sampling\|smsp__pcsamp" $R/ncu-*.log | head -20 >> $R/session.log
