#!/usr/bin/env bash
# Device call g14 (2026-12-06, session 63): where the FMG solve's time goes outside the V-cycle's
# components: the Kokkos Tools kernel timer (perf/kernel_timer.cpp) on the driver's FMG to 1e-9,
# f = 1, Q1 r9 / Q3 r7 / Q7 r6, double and mixed, one solve each (fenced by the tool), beside the
# untimed solve (median of 3).
set -u
R=$OUT/r; mkdir -p $R/timer
for f in .device/*.tar.xz; do tar xJf $f; done
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
P=build-cuda/drivers/tensormg-poisson
for spec in "-k 1 -r 9" "-k 3 -r 7" "-k 7 -r 6"; do
  for prec in double mixed; do
    name="q$(echo "$spec" | tr -d ' -')-$prec"
    timeout 100 $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3 > $R/timer/$name-untimed.txt 2>&1
    echo "$name untimed exit $? $(grep -E '^  solve time' $R/timer/$name-untimed.txt | sed 's/  */ /g')" >> $R/session.log
    KOKKOS_PROFILE_LIBRARY=build-cuda/perf/libtensormg-kernel-timer.so TENSORMG_KERNEL_TIMER_OUT=$R/timer/$name-table.txt \
      timeout 100 $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 > $R/timer/$name-timed.txt 2>&1
    echo "$name timed exit $? $(grep -E '^  solve time' $R/timer/$name-timed.txt | sed 's/  */ /g')" >> $R/session.log
  done
done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
