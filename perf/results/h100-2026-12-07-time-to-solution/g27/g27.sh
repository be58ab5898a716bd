#!/usr/bin/env bash
# Device call g27 (2026-12-07, session 67): where does `tensormg-poisson --mixed-start corrections` crash
# on the GPU (exit 139, null address, g26)? A Kokkos Tools library (.device/crashlog.cpp) prints the
# faulting PC, the words at the stack top and the rbp chain (offsets into the binary, resolved here
# with the unstripped copy), the open regions and the last kernels.
set -u
R=$OUT/r; mkdir -p $R
for f in .device/*.tar.xz; do tar xJf $f; done
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; which gdb cuda-gdb compute-sanitizer; } > $R/env.txt 2>&1
P=build-cuda/drivers/tensormg-poisson
run() {  # name args...
  local name=$1; shift
  KOKKOS_PROFILE_LIBRARY=$PWD/.device/libcrashlog.so timeout 60 stdbuf -oL $P "$@" > $R/$name.txt 2>&1
  echo "$name exit $?" >> $R/session.log
}
run k1r5-corr --dim 3 -k 1 -r 5 --solver fmg --precision mixed --mixed-start corrections --problem one --rtol 1e-9
run k1r5-double-start --dim 3 -k 1 -r 5 --solver fmg --precision mixed --mixed-start double --problem one --rtol 1e-9
run k3r3-corr --dim 3 -k 3 -r 3 --solver fmg --precision mixed --mixed-start corrections --problem one --rtol 1e-9
run k3r3-corr-2d --dim 2 -k 3 -r 4 --solver fmg --precision mixed --mixed-start corrections --problem one --rtol 1e-9
run k3r7-corr --dim 3 -k 3 -r 7 --solver fmg --precision mixed --mixed-start corrections --problem one --rtol 1e-9 --repeat 3
for t in test_multigrid; do
  [ -x build-cuda/tests/$t ] && timeout 200 build-cuda/tests/$t --gtest_filter='*Mixed*' > $R/$t.txt 2>&1; echo "$t exit $?" >> $R/session.log
done
if command -v gdb >/dev/null; then
  timeout 90 gdb -batch -ex run -ex bt -ex 'info registers rip rsp' -ex 'x/4gx $rsp' --args $P --dim 3 -k 1 -r 5 --solver fmg --precision mixed --mixed-start corrections --problem one > $R/gdb.txt 2>&1
fi
