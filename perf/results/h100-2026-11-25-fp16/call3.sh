#!/usr/bin/env bash
# Device call 3: the FGMRES precision study of paper 001 §7 (Q3, Q7 at 16.8M and 134M DoFs),
# every record kept (one tarball).
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R/records $R/logs
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; cat build-cuda/COMMIT; } > $R/env.txt 2>&1
B=build-cuda; P=$B/drivers/tensormg-poisson; L=$R/logs
solve() {  # name, args...
  local name=$1; shift
  timeout 90 $P --discretization dg --dim 3 --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --record $R/records/$name.json "$@" > $R/records/$name.txt 2>&1
  echo "$name rc=$? $(grep -E 'solve time|L2 error|iterations' $R/records/$name.txt | tr -s ' ' | tr '\n' ';')" >> $R/log.txt
}
for round in a b; do  # two rounds: run-to-run spread
  for r in 6 7; do
    solve q3-r$r-fp64-cc-$round -k 3 -r $r --precision double --contraction lines
    solve q3-r$r-fp64-tc-$round -k 3 -r $r --precision double --contraction blocks
    solve q3-r$r-fp32-$round -k 3 -r $r --precision mixed --contraction lines
    solve q3-r$r-fp16-$round -k 3 -r $r --precision mixed --contraction f16
    solve q3-r$r-fp16ec-$round -k 3 -r $r --precision mixed --contraction f16ec
  done
  for r in 5 6; do  # restart 10: 31 FGMRES vectors of 134M doubles do not fit beside the hierarchy
    solve q7-r$r-fp64-cc-$round -k 7 -r $r --restart 10 --precision double --contraction lines
    solve q7-r$r-fp64-tc-$round -k 7 -r $r --restart 10 --precision double --contraction blocks
    solve q7-r$r-fp32-$round -k 7 -r $r --restart 10 --precision mixed --contraction lines
  done
done
# V-cycle breakdown (--mg-times fences each component: separate runs, not in the table)
for v in "fp64-cc double lines" "fp64-tc double blocks" "fp32 mixed lines" "fp16ec mixed f16ec"; do
  set -- $v
  timeout 60 $P --discretization dg --dim 3 -k 3 -r 7 --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --precision $2 --contraction $3 --mg-times > $R/logs/times-q3-r7-$1.txt 2>&1
  echo "times $1 rc=$?" >> $R/log.txt
done
python3 perf/precision_study.py $R/records/*.json --markdown $R/study.md --json $R/study.json >> $R/log.txt 2>&1
tar czf $R/records.tgz -C $R records logs && rm -rf $R/records $R/logs
echo done >> $R/log.txt
