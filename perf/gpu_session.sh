#!/usr/bin/env bash
# The one device-session script: every part of a GPU-machine call (tests, compute-sanitizer,
# ceilings, the benchmark sweeps of perf/README.md, Nsight Compute profiles), each under a time
# cap, results under --out. Run from the repository root with the CUDA build in --build.
#
# Usage: bash perf/gpu_session.sh [--out DIR] [--build DIR] [--ceilings FILE] [--extra CMD] PART...
#   --out       results folder (default $OUT, else ./gpu-out)
#   --build     CUDA build folder (default build-cuda)
#   --ceilings  the ceilings record the benchmarks report their fractions against; the `ceilings`
#               part measures one into <out>/ceilings.json and, without this option, uses it
#   --extra     a command run after the parts (eval'd), e.g. "source .device/ab.sh"
# Parts:
#   tests           the CUDA ctest suite (no header check, no install tests)
#   sanitize        compute-sanitizer memcheck + racecheck on the kernel tests ($SANITIZE to choose)
#   ceilings        tensormg-ceilings: copy bandwidth, FMA and mma rates of this GPU
#   offline-build   Kokkos bootstrap without network + full build + ctest in /tmp (the CI path)
#   operator operator-2d spmv teams                 operator sweeps (tensormg-bench-operator)
#   smoother smoother-2d smoother-teams smoother-all one smoothing step (tensormg-bench-multigrid)
#   vcycle fmg iterations                           multigrid studies
#   dg dg-2d dg-teams dg-2d-teams dg-spmv dg-solve  DG (SIPG): operator beside the continuous one,
#   dg-smoother dg-mg dg-iterations                 cells per team, SpMV, a CG + Jacobi solve, one
#                                                   smoothing step of the DG vertex-patch smoother,
#                                                   DG multigrid solves (time to solution against
#                                                   CG + Jacobi), paper 002 Tables 1-2
#   ranks                                           multigrid on several ranks sharing the GPU:
#                                                   tests at 1-4 ranks, memcheck, FMG overheads
#   overlap                                         --halo-overlap on / off at 2 and 4 ranks (FMG Q1,
#                                                   Q3, Q7, DG Q3): the A/B behind the auto rule
#   scaling                                         perf/scaling_study.py ($SCALING_RANKS, $WEAK_DOFS,
#                                                   $STRONG_DOFS, $SCALING_DEGREES, $SCALING_REPEAT)
#   multi-gpu                                       one GPU per rank: topology, tests at 2, 4 (8) ranks,
#                                                   weak and strong scaling over 1, 2, 4(, 8) GPUs,
#                                                   --halo-transport auto against staged
#   ncu-operator ncu-vmult ncu-smoother             Nsight Compute profiles
# Each part's time cap is $PART_TIMEOUT seconds (default 300).
set -uo pipefail
out="${OUT:-$PWD/gpu-out}"
build=build-cuda
ceil=""
extra=""
parts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --ceilings) ceil="$2"; shift 2 ;;
    --extra) extra="$2"; shift 2 ;;
    -*) echo "unknown option $1"; exit 2 ;;
    *) parts+=("$1"); shift ;;
  esac
done
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cap="${PART_TIMEOUT:-300}"
op="$build/perf/tensormg-bench-operator"
mg="$build/perf/tensormg-bench-multigrid"
{
  echo "pwd: $PWD"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv
  nproc; for l in liblapack.so.3 libhdf5_serial.so.103 libmpi.so.40 libgtest; do ldconfig -p | grep -m1 "$l" || echo "missing $l"; done
} > "$out/env.txt" 2>&1
head -3 "$out/env.txt"
# CTest files name the build machine's absolute paths: make them valid here.
built_at=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2>/dev/null)
if [ -n "$built_at" ] && [ "$built_at" != "$PWD" ] && [ ! -e "$built_at" ]; then
  mkdir -p "$(dirname "$built_at")" && ln -s "$PWD" "$built_at"
fi
need_ceilings() {
  if [ -z "$ceil" ]; then echo "part $1 needs --ceilings FILE (or the ceilings part first)"; return 1; fi
}
# run <name> <program> <args...>: one benchmark record <name>.json with its log <name>.txt.
run() {
  local name="$1"; shift
  echo "== $name: $*"
  timeout "$cap" "$@" --overwrite > "$out/$name.txt" 2>&1
  echo "$name exit $?"; grep -v "^#" "$out/$name.txt" | tail -n 14
}
for part in "${parts[@]}"; do
  case "$part" in
    tests)
      (cd "$build" && timeout "$cap" ctest -E headers -LE install --output-on-failure -j4 --timeout "$cap") > "$out/ctest.log" 2>&1
      echo "ctest exit $?"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest.log"
      ;;
    sanitize)
      for t in ${SANITIZE:-test_core test_laplace_operator test_multigrid test_vertex_patch}; do
        SANITIZE_TIMEOUT=$cap bash perf/sanitize.sh "$build" "$out" "$t"
      done
      ;;
    ranks)
      # Multigrid on several ranks sharing this GPU (issue 14): the tests against one rank at 1-4
      # ranks, memcheck at 2 ranks, then FMG at 1, 2 and 4 ranks (--mg-times: the halo exchange's
      # share of the finest smoothing). Ranks sharing one GPU measure overheads, not scaling.
      for np in 1 2 3 4; do
        timeout "$cap" mpiexec -n $np --oversubscribe "$build/tests/test_multigrid_ranks" --gtest_filter='*/Cuda.*' \
          > "$out/test_multigrid_ranks-np$np.txt" 2>&1
        echo "test_multigrid_ranks np$np exit $? | $(grep -m1 -E 'PASSED|FAILED' "$out/test_multigrid_ranks-np$np.txt")"
      done
      timeout "$cap" mpiexec -n 2 --oversubscribe compute-sanitizer --tool memcheck --error-exitcode 9 \
        "$build/tests/test_multigrid_ranks" --gtest_filter='*/Cuda.*SmoothingStep*:*/Cuda.Transfers*' \
        > "$out/sanitizer-test_multigrid_ranks-np2-memcheck.log" 2>&1
      echo "compute-sanitizer memcheck test_multigrid_ranks np2: exit $? | $(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitizer-test_multigrid_ranks-np2-memcheck.log") ranks clean"
      for spec in "-k 1 -r 8" "-k 3 -r 7" "-k 7 -r 6"; do
        for np in 1 2 4; do
          name="ranks-fmg-$(echo "$spec" | tr -d ' -')-np$np"
          timeout "$cap" mpiexec -n $np --oversubscribe "$build/drivers/tensormg-poisson" --dim 3 $spec --solver fmg \
            --problem one --rtol 1e-9 --mg-times --record "$out/$name.json" --overwrite > "$out/$name.txt" 2>&1
          echo "$name exit $? |$(grep -E '^  iterations' "$out/$name.txt" | awk '{print " cycles", $2}') |$(grep -E '^  solve time' "$out/$name.txt" | awk '{print " solve", $3}') |$(grep -E '^    smoothing  ' "$out/$name.txt" | awk '{print " smoothing", $2}') |$(grep -E 'smoothing: halo' "$out/$name.txt" | awk '{print " halo", $4}')"
        done
      done
      ;;
    overlap)
      # The halo exchange overlapped with the interior patches or not (smoothers/patch_window.hpp),
      # FMG without --mg-times (its fences serialise the overlap), two repetitions.
      for rep in 1 2; do
        for spec in "-k 1 -r 8" "-k 3 -r 7" "-k 7 -r 6" "--discretization dg -k 3 -r 6"; do
          for np in 2 4; do
            for v in on off; do
              name="overlap-$(echo "$spec" | tr -d ' -')-np$np-$v-$rep"
              timeout "$cap" mpiexec -n $np --oversubscribe "$build/drivers/tensormg-poisson" --dim 3 $spec --solver fmg \
                --problem one --rtol 1e-9 --halo-overlap $v > "$out/$name.txt" 2>&1
              echo "$name exit $? |$(grep -E '^  solve time' "$out/$name.txt" | awk '{print " solve", $3}')"
            done
          done
        done
      done
      ;;
    scaling)
      # perf/scaling_study.py: weak (DoFs per GPU) and strong series over $SCALING_RANKS ranks, one
      # GPU per rank on a multi-GPU machine (on one GPU the ranks share it); solve time the median of
      # $SCALING_REPEAT solves per run.
      timeout "$cap" python3 perf/scaling_study.py --program "$build/drivers/tensormg-poisson" \
        --launcher "mpiexec -n {ranks} --oversubscribe" --ranks "${SCALING_RANKS:-1,2,4}" --degrees "${SCALING_DEGREES:-1,3,7}" \
        --solvers fmg,gmres --dim 3 --weak-dofs "${WEAK_DOFS:-2e8}" --strong-dofs "${STRONG_DOFS:-5e8}" --out "$out/scaling" \
        --repeat "${SCALING_REPEAT:-3}" --run-timeout "${SCALING_RUN_TIMEOUT:-120}" > "$out/scaling.log" 2>&1
      echo "scaling exit $?"; tail -40 "$out/scaling.log"
      ;;
    multi-gpu)
      # One GPU per rank on a machine of several GPUs (issue 14): how the GPUs are linked; the
      # multi-rank tests at 2 and 4 (8) ranks, at 2 ranks sharing GPU 0, and compute-sanitizer
      # memcheck of the device-to-device halo refresh; the one-rank FMG reference; the weak series
      # (solve times and, from a second run with --mg-times, the V-cycle's components) and the
      # strong series (solve times) as two studies, each under its own cap ($WEAK_CAP, $STRONG_CAP
      # seconds); then --halo-transport auto against staged on the most ranks (FMG, weak sizes).
      gpus=$(nvidia-smi -L | grep -c '^GPU')
      { nvidia-smi -L; nvidia-smi topo -m; mpiexec --version | head -1; } > "$out/topology.txt" 2>&1
      echo "GPUs: $gpus"; head -"$gpus" "$out/topology.txt"
      t="$build/tests/test_multigrid_ranks"
      for np in 2 4 8; do
        [ "$np" -le "$gpus" ] || continue
        timeout "${TEST_CAP:-50}" mpiexec -n $np "$t" --gtest_filter='*/Cuda.*:HaloTransport.*' > "$out/test_multigrid_ranks-gpus-np$np.txt" 2>&1
        echo "test_multigrid_ranks np$np (one GPU per rank) exit $? | $(grep -m1 -E 'PASSED|FAILED' "$out/test_multigrid_ranks-gpus-np$np.txt")"
      done
      CUDA_VISIBLE_DEVICES=0 timeout "${TEST_CAP:-50}" mpiexec -n 2 "$t" --gtest_filter='*/Cuda.*' > "$out/test_multigrid_ranks-shared-np2.txt" 2>&1
      echo "test_multigrid_ranks np2 (one GPU shared) exit $? | $(grep -m1 -E 'PASSED|FAILED' "$out/test_multigrid_ranks-shared-np2.txt")"
      timeout 90 mpiexec -n 2 compute-sanitizer --tool memcheck --error-exitcode 9 "$t" \
        --gtest_filter='*/Cuda.PeerTransport*:*/Cuda.SmoothingStep*' > "$out/sanitizer-peer-np2-memcheck.log" 2>&1
      echo "compute-sanitizer memcheck peer transport np2: exit $? | $(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitizer-peer-np2-memcheck.log") ranks clean"
      if ! grep -q PASSED "$out/test_multigrid_ranks-gpus-np2.txt"; then
        echo "the two-rank tests did not pass: no scaling runs"; continue
      fi
      timeout 60 "$build/drivers/tensormg-poisson" --dim 3 -k 7 -r 6 --solver fmg --problem one --rtol 1e-9 --repeat 3 \
        --record "$out/one-rank-fmg-k7r6.json" --overwrite > "$out/one-rank-fmg-k7r6.txt" 2>&1
      echo "one rank FMG Q7 90.5M exit $? | $(grep -E '^  solve time' "$out/one-rank-fmg-k7r6.txt")"
      ranks="1"; most=1; for np in 2 4 8; do [ "$np" -le "$gpus" ] && ranks="$ranks,$np" && most=$np; done
      timeout "${WEAK_CAP:-250}" python3 perf/scaling_study.py --program "$build/drivers/tensormg-poisson" \
        --launcher "mpiexec -n {ranks}" --ranks "$ranks" --degrees "${SCALING_DEGREES:-1,3,7}" --solvers fmg,gmres \
        --dim 3 --weak-dofs "${WEAK_DOFS:-2e8}" --strong-dofs 0 --repeat "${SCALING_REPEAT:-3}" --times both \
        --extra "--restart 10 ${SCALING_EXTRA:-}" --run-timeout "${SCALING_RUN_TIMEOUT:-90}" --title ", one GPU per rank" \
        --out "$out/weak" > "$out/weak.log" 2>&1
      echo "weak scaling exit $?"; tail -30 "$out/weak.log"
      timeout "${STRONG_CAP:-170}" python3 perf/scaling_study.py --program "$build/drivers/tensormg-poisson" \
        --launcher "mpiexec -n {ranks}" --ranks "$ranks" --degrees "${SCALING_DEGREES:-1,3,7}" --solvers fmg,gmres \
        --dim 3 --weak-dofs 0 --strong-dofs "${STRONG_DOFS:-5e8}" --repeat "${SCALING_REPEAT:-3}" --times untimed \
        --extra "--restart 10 ${SCALING_EXTRA:-}" --run-timeout "${SCALING_RUN_TIMEOUT:-90}" --title ", one GPU per rank" \
        --out "$out/strong" > "$out/strong.log" 2>&1
      echo "strong scaling exit $?"; tail -30 "$out/strong.log"
      # The weak series' meshes at the most ranks (scaling_study.py's choice for 2e8 DoFs per rank).
      case "$most" in 2) q3="--cells 14,7,7 -r 5"; q7="--cells 6,3,3 -r 5"; g="2,1,1" ;;
                      4) q3="--cells 14,14,7 -r 5"; q7="--cells 6,6,3 -r 5"; g="2,2,1" ;;
                      *) q3=""; q7="" ;; esac
      for spec in "-k 3 $q3" "-k 7 $q7"; do
        [ -n "$q3" ] || break
        for tr in auto staged; do
          name="transport-$(echo "$spec" | tr -d ' -,')-np$most-$tr"
          timeout 60 mpiexec -n $most "$build/drivers/tensormg-poisson" --dim 3 $spec --upper $g --solver fmg --problem one \
            --rtol 1e-9 --repeat 3 --halo-transport $tr --record "$out/$name.json" --overwrite > "$out/$name.txt" 2>&1
          echo "$name exit $? | $(grep -E '^  solve time' "$out/$name.txt")"
        done
      done
      ;;
    ceilings)
      timeout "$cap" "$build/perf/tensormg-ceilings" --output "$out/ceilings.json" --overwrite > "$out/ceilings.log" 2>&1
      echo "ceilings exit $?"; grep -A12 '"ceilings"' "$out/ceilings.json"
      [ -n "$ceil" ] || ceil="$out/ceilings.json"
      ;;
    offline-build)
      start=$(date +%s)
      (bash cmake/bootstrap-kokkos.sh --backend cuda --arch HOPPER90 --prefix /tmp/kokkos-offline --jobs 16 \
       && cmake -S . -B /tmp/build-offline -DKokkos_ROOT=/tmp/kokkos-offline -DCMAKE_CXX_COMPILER=/tmp/kokkos-offline/bin/nvcc_wrapper \
            -DTENSORMG_CLI11_INCLUDE_DIR=$PWD/.deps/cli11/include \
       && cmake --build /tmp/build-offline -j16 && (cd /tmp/build-offline && ctest -E headers -LE install -j4 --output-on-failure)) \
       > "$out/offline-build.log" 2>&1
      echo "offline bootstrap+build+ctest exit $? in $(( $(date +%s) - start )) s"; grep -E "tests passed|error" "$out/offline-build.log" | head
      ;;
    operator)
      need_ceilings "$part" && run bench-3d-large $op --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 6e7 --precisions double \
        --ceilings "$ceil" --spmv-max-gib 0 --repeats 20 --output "$out/bench-3d-large.json" ;;
    operator-2d)
      need_ceilings "$part" && run bench-2d-large $op --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 5e7 --precisions double \
        --ceilings "$ceil" --spmv-max-gib 0 --repeats 20 --output "$out/bench-2d-large.json" ;;
    spmv)
      need_ceilings "$part" && run bench-3d-spmv $op --dims 3 --degrees 2,3 --dofs 2e6,8e6 --precisions double \
        --ceilings "$ceil" --spmv-max-gib 16 --output "$out/bench-3d-spmv.json" ;;
    teams)
      need_ceilings "$part" && run bench-3d-teams $op --dims 3 --degrees 2,3 --dofs 6e7 --precisions double \
        --cells-per-team 6,8,10,12,14,16,18,20,24,28 --spmv-max-gib 0 --ceilings "$ceil" --output "$out/bench-3d-teams.json" ;;
    smoother)
      need_ceilings "$part" && run smoother-3d $mg --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 \
        --precisions double,float --ceilings "$ceil" --repeats 5 -o "$out/smoother-3d.json" ;;
    smoother-2d)
      need_ceilings "$part" && run smoother-2d $mg --study smoother --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 3e7 \
        --ceilings "$ceil" --repeats 5 -o "$out/smoother-2d.json" ;;
    smoother-teams)
      # threads per patch (closure or interior columns) × patches per team, default kernel
      need_ceilings "$part" && run smoother-3d-teams $mg --study smoother --dims 3 --degrees 2,3,4,5,6 --dofs 3e7 \
        --ceilings "$ceil" --repeats 5 --threads-per-patch closure,interior --patches-per-team 0,1,2,3,4,6,8,12,16,28 \
        -o "$out/smoother-3d-teams.json" ;;
    smoother-all)
      need_ceilings "$part" && run smoother-3d-all $mg --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 \
        --variants all --ceilings "$ceil" --repeats 5 -o "$out/smoother-3d-all.json" ;;
    vcycle)
      run vcycle $mg --study vcycle --dims 2,3 --degrees 1,2,3,4,5,6,7,8 --dofs ${DOFS3:-5e7} --precisions double,float \
        --cycles 10 -o "$out/vcycle.json" ;;
    fmg)
      run fmg-3d $mg --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --max-dofs ${MAXDOFS3:-1.4e8} \
        --problem one --repeats 3 -o "$out/fmg-3d.json" ;;
    iterations)
      run iterations-2d $mg --study iterations --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --levels 4,5,6,7,8,9,10 \
        --max-dofs ${MAXDOFS2:-3e7} -o "$out/iterations-2d.json"
      run iterations-3d $mg --study iterations --dims 3 --degrees 1,2,3,4,5,6,7,8 --levels 2,3,4,5,6 \
        --max-dofs ${MAXDOFS3:-3e7} -o "$out/iterations-3d.json" ;;
    dg)
      need_ceilings "$part" && run dg-3d-large $op --discretizations cg,dg --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 6e7 \
        --precisions double,float --ceilings "$ceil" --spmv-max-gib 0 --repeats 20 --output "$out/dg-3d-large.json" ;;
    dg-2d)
      need_ceilings "$part" && run dg-2d-large $op --discretizations dg --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 5e7 \
        --ceilings "$ceil" --spmv-max-gib 0 --repeats 20 --output "$out/dg-2d-large.json" ;;
    dg-teams)
      need_ceilings "$part" && run dg-3d-teams $op --discretizations dg --dims 3 --degrees 2,3,4,5,6,7 --dofs 6e7 \
        --cells-per-team 1,2,3,4,6,8,12,16 --spmv-max-gib 0 --repeats 10 --ceilings "$ceil" --output "$out/dg-3d-teams.json" ;;
    dg-2d-teams)
      need_ceilings "$part" && run dg-2d-teams $op --discretizations dg --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 5e7 \
        --cells-per-team 4,8,16,32,64 --spmv-max-gib 0 --repeats 10 --ceilings "$ceil" --output "$out/dg-2d-teams.json" ;;
    dg-smoother)
      need_ceilings "$part" && run dg-smoother $mg --study dg-smoother --dims 2,3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 \
        --precisions double,float --ceilings "$ceil" --repeats 5 -o "$out/dg-smoother.json" ;;
    dg-spmv)
      need_ceilings "$part" && run dg-3d-spmv $op --discretizations dg --dims 3 --degrees 2,3 --dofs 2e6,8e6 \
        --ceilings "$ceil" --spmv-max-gib 16 --output "$out/dg-3d-spmv.json" ;;
    dg-solve)
      for args in "--dim 3 -k 3 -r 6" "--dim 3 -k 7 --cells 3 -r 4"; do
        name="dg-solve-$(echo $args | tr -d ' -')"
        timeout "$cap" "$build/drivers/tensormg-poisson" --discretization dg $args --problem sine --solver cg \
          --preconditioner jacobi > "$out/$name.txt" 2>&1
        echo "$name exit $?"; grep -E "DoFs|iterations|setup time|solve time|GDoF/s per|L2 error" "$out/$name.txt"
      done ;;
    dg-mg)
      # DG multigrid time to solution (setup + solve) beside CG + Jacobi on the same problem, 3D,
      # u = prod sin(pi x), 1e-8; FMG and MG-(F)GMRES, double and mixed, the three local solvers.
      for spec in "-k 2 -r 7" "-k 3 -r 6" "-k 3 -r 7" "-k 5 -r 6" "-k 7 --cells 3 -r 4"; do
        for solve in "--solver fmg" "--solver fmg --precision mixed" "--solver fmg --local-solver full" \
                     "--solver fmg --local-solver clamped" "--solver gmres --preconditioner mg" \
                     "--solver fgmres --preconditioner mg --precision mixed" "--solver cg --preconditioner jacobi"; do
          case "$spec $solve" in *"-k 2"*clamped*) continue ;; esac
          name="dg-mg-$(echo "$spec $solve" | tr -d ' -')"
          timeout "$cap" "$build/drivers/tensormg-poisson" --discretization dg --dim 3 $spec $solve --problem sine \
            --rtol 1e-8 --max-iterations 5000 > "$out/$name.txt" 2>&1
          echo "$name exit $? | $(grep -E '^  DoFs' "$out/$name.txt" | awk '{print $2}') DoFs | $(grep -E '^  iterations' "$out/$name.txt" | sed 's/  */ /g') |$(grep -E '^  setup time' "$out/$name.txt" | awk '{print " setup", $3}') |$(grep -E '^  solve time' "$out/$name.txt" | awk '{print " solve", $3}') |$(grep -E '^  L2 error' "$out/$name.txt" | awk '{print " L2", $3}')"
        done
      done ;;
    dg-iterations)
      run dg-iterations-3d $mg --study dg-iterations --dims 3 --degrees 2,3,4,5,6,7 --levels 2,3,4,5,6,7 --rtol 1e-8 \
        --local-solvers full,dirichlet,clamped --max-dofs ${MAXDOFS3:-1.2e8} -o "$out/dg-iterations-3d.json" ;;
    ncu-operator) timeout "$cap" bash perf/profile_operator.sh "$build" "$out" 3 ${NCU_DEGREES:-2 3} ;;
    ncu-vmult)
      # every kernel of a few operator applications at 60M DoF, k = 2: what a vmult costs besides the cell kernel
      timeout "$cap" ncu --section SpeedOfLight --launch-skip 3 --launch-count 9 $op --dims 3 --degrees 2 --dofs 6e7 \
        --repeats 3 --spmv-max-gib 0 > "$out/ncu-vmult-k2.txt" 2>&1
      echo "ncu vmult exit $?"; grep -E "^  [A-Za-z_]|Duration" "$out/ncu-vmult-k2.txt" | head -40 ;;
    ncu-smoother) timeout "$cap" bash perf/profile_smoother.sh "$build" "$out" 3 ${NCU_DEGREES:-3 5} ;;
    *) echo "unknown part $part"; exit 2 ;;
  esac
done
if [ -n "$extra" ]; then eval "$extra"; fi
