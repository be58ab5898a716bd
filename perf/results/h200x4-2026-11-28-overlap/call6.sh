#!/usr/bin/env bash
# Device call 6 (nvidia-h200-x4): issue 14. --halo-overlap on against off with one GPU per rank
# (the auto rule was measured with ranks sharing one GPU only), 4 ranks, weak sizes, FMG.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$OUT/r; mkdir -p $R
tar xJf .device/bins.tar.xz
P=build-cuda/drivers/tensormg-poisson
C="--dim 3 --precision double --rtol 1e-09 --solver fmg --repeat 3"
q3="-k 3 --cells 14,14,7 -r 5 --upper 2,2,1"; q7="-k 7 --cells 6,6,3 -r 5 --upper 2,2,1"; q1="-k 1 --cells 10,10,5 -r 7 --upper 2,2,1"
for q in q3 q7 q1; do
  for round in 1 2; do
    for ov in on off; do
      name="$q-np4-overlap-$ov-$round"
      timeout 60 mpiexec -n 4 $P $C ${!q} --halo-overlap $ov --record $R/$name.json --overwrite > $R/$name.txt 2>&1
      echo "$name exit $? | $(grep -E '^  (iterations|solve time)' $R/$name.txt | tr -s ' ' | cut -c1-60 | tr '\n' '|')"
    done
  done
done
tar cJf $OUT/call6.tar.xz -C $OUT r && rm -rf $R
