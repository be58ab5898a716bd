#!/usr/bin/env bash
# One device call for kernel work on the operator and the smoother: the CUDA tests of both, then
# the 3D FP64 operator sweep at ~60M DoF, the SpMV comparison at low degree, and one smoothing step
# per degree (default variant), each part under a time cap. Results go to <out>.
# Usage (repository root, CUDA build in build-cuda): bash perf/gpu_kernel_session.sh <out> [parts...]
#   parts: tests operator operator-2d spmv teams smoother smoother-teams smoother-all ncu-operator ncu-vmult
#          ncu-smoother
source "$(dirname "$0")/session_setup.sh"
op=build-cuda/perf/tensormg-bench-operator
mg=build-cuda/perf/tensormg-bench-multigrid
cap="${PART_TIMEOUT:-240}"
for part in "$@"; do
  case "$part" in
    tests)
      (cd build-cuda && timeout 300 ctest -R "test_core|laplace_operator|krylov|poisson|vertex_patch|multigrid" -LE install \
        --output-on-failure -j4 --timeout 280) > "$out/ctest.log" 2>&1
      echo "ctest exit $?"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest.log"
      FILTER='*/Cuda.*' SANITIZE_TIMEOUT=120 bash perf/sanitize.sh build-cuda "$out" test_laplace_operator
      FILTER='*/Cuda.OneStepMatchesSequentialAlgorithm*:*/Cuda.ThreadsPerPatch*:*/Cuda.Helmholtz*:*/Cuda.SinglePatch*:*/Cuda.Q7*' \
        SANITIZE_TIMEOUT=150 bash perf/sanitize.sh build-cuda "$out" test_vertex_patch
      ;;
    operator)
      timeout "$cap" $op --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 6e7 --precisions double --ceilings "$ceil" \
        --spmv-max-gib 0 --repeats 20 --output "$out/bench-3d-large.json" --overwrite > "$out/bench-3d-large.log" 2>&1
      echo "operator exit $?"; cat "$out/bench-3d-large.log" | tail -n 12
      ;;
    operator-2d)
      timeout "$cap" $op --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 5e7 --precisions double --ceilings "$ceil" \
        --spmv-max-gib 0 --repeats 20 --output "$out/bench-2d-large.json" --overwrite > "$out/bench-2d-large.log" 2>&1
      echo "operator-2d exit $?"; tail -n 12 "$out/bench-2d-large.log"
      ;;
    spmv)
      timeout "$cap" $op --dims 3 --degrees 2,3 --dofs 2e6,8e6 --precisions double --ceilings "$ceil" \
        --spmv-max-gib 16 --output "$out/bench-3d-spmv.json" --overwrite > "$out/bench-3d-spmv.log" 2>&1
      echo "spmv exit $?"; tail -n 8 "$out/bench-3d-spmv.log"
      ;;
    teams)
      timeout "$cap" $op --dims 3 --degrees 2,3 --dofs 6e7 --precisions double --cells-per-team 6,8,10,12,14,16,18,20,24,28 \
        --spmv-max-gib 0 --ceilings "$ceil" --output "$out/bench-3d-teams.json" --overwrite > "$out/bench-3d-teams.log" 2>&1
      echo "teams exit $?"; grep -v "^#" "$out/bench-3d-teams.log" | tail -n 30
      ;;
    smoother)
      timeout "$cap" $mg --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --ceilings "$ceil" --repeats 5 \
        -o "$out/smoother-3d.json" --overwrite > "$out/smoother-3d.txt" 2>&1
      echo "smoother exit $?"; tail -n 12 "$out/smoother-3d.txt"
      timeout "$cap" $mg --study smoother --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 3e7 --ceilings "$ceil" --repeats 5 \
        -o "$out/smoother-2d.json" --overwrite > "$out/smoother-2d.txt" 2>&1
      echo "smoother 2D exit $?"; tail -n 12 "$out/smoother-2d.txt"
      ;;
    smoother-teams)
      # threads per patch (closure or interior columns) × patches per team, default kernel
      timeout "$cap" $mg --study smoother --dims 3 --degrees 2,3,4,5,6 --dofs 3e7 --ceilings "$ceil" --repeats 5 \
        --threads-per-patch closure,interior --patches-per-team 0,1,2,3,4,6,8,12,16,28 \
        -o "$out/smoother-3d-teams.json" --overwrite > "$out/smoother-3d-teams.txt" 2>&1
      echo "smoother-teams 3D exit $?"
      timeout "$cap" $mg --study smoother --dims 2 --degrees 2,3,4,6,8,10 --dofs 3e7 --ceilings "$ceil" --repeats 5 \
        --threads-per-patch closure,interior --patches-per-team 0,4,8,16,32 \
        -o "$out/smoother-2d-teams.json" --overwrite > "$out/smoother-2d-teams.txt" 2>&1
      echo "smoother-teams 2D exit $?"
      ;;
    smoother-all)
      timeout "$cap" $mg --study smoother --dims 3 --degrees 3,5,6,7 --dofs 3e7 --variants all --ceilings "$ceil" --repeats 5 \
        -o "$out/smoother-3d-all.json" --overwrite > "$out/smoother-3d-all.txt" 2>&1
      echo "smoother-all exit $?"; tail -n 30 "$out/smoother-3d-all.txt"
      ;;
    ncu-operator) timeout "$cap" bash perf/profile_operator.sh build-cuda "$out" 3 ${NCU_DEGREES:-2 3} ;;
    ncu-vmult)
      # every kernel of a few operator applications at 60M DoF, k = 2: what a vmult costs besides the cell kernel
      timeout "$cap" ncu --section SpeedOfLight --launch-skip 3 --launch-count 9 $op --dims 3 --degrees 2 --dofs 6e7 \
        --repeats 3 --spmv-max-gib 0 > "$out/ncu-vmult-k2.txt" 2>&1
      echo "ncu vmult exit $?"; grep -E "^  [A-Za-z_]|Duration" "$out/ncu-vmult-k2.txt" | head -40
      ;;
    ncu-smoother) timeout "$cap" bash perf/profile_smoother.sh build-cuda "$out" 3 ${NCU_DEGREES:-3 5} ;;
    *) echo "unknown part $part"; exit 2 ;;
  esac
done
