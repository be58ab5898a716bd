#!/usr/bin/env bash
# Device call 1 (session of 2026-11-28 afternoon, nvidia-h200-x4): issue 14. The vectors' ghost
# exchanges (Partitioner: the operator's update_ghosts/compress_add, the transfers) through the
# device trait's staging and GPU peer memory (forward and reverse), against the binary before
# (.device/bin/tensormg-poisson-before); the coarse-level replication threshold swept at 4 ranks.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$OUT/r; mkdir -p $R
tar xJf .device/bins.tar.xz
P=build-cuda/drivers/tensormg-poisson; B=.device/bin/tensormg-poisson-before; T=build-cuda/tests/test_multigrid_ranks
{ nvidia-smi -L; nvidia-smi topo -m; mpiexec --version | head -1; } > $R/topology.txt 2>&1; head -4 $R/topology.txt
for np in 2 4; do
  timeout 100 mpiexec -n $np $T --gtest_filter='*/Cuda.*:HaloTransport.*' > $R/tests-gpus-np$np.txt 2>&1
  echo "tests np$np (one GPU per rank) exit $? | $(grep -m1 -E 'PASSED|FAILED' $R/tests-gpus-np$np.txt)"
done
CUDA_VISIBLE_DEVICES=0 timeout 100 mpiexec -n 2 $T --gtest_filter='*/Cuda.*' > $R/tests-shared-np2.txt 2>&1
echo "tests np2 (GPU 0 shared) exit $? | $(grep -m1 -E 'PASSED|FAILED' $R/tests-shared-np2.txt)"
timeout 100 mpiexec -n 2 compute-sanitizer --tool memcheck --error-exitcode 9 $T \
  --gtest_filter='*/Cuda.PartitionerPeer*:*/Cuda.PeerTransport*' > $R/memcheck-peer-np2.log 2>&1
echo "memcheck np2 exit $? | $(grep -c 'ERROR SUMMARY: 0 errors' $R/memcheck-peer-np2.log) ranks clean"
C="--dim 3 --precision double --rtol 1e-09 --restart 10"
q3_1="-k 3 --cells 7,7,7 -r 5"; q7_1="-k 7 --cells 3,3,3 -r 5"; q1_1="-k 1 --cells 5,5,5 -r 7"
q3_4="-k 3 --cells 14,14,7 -r 5 --upper 2,2,1"; q7_4="-k 7 --cells 6,6,3 -r 5 --upper 2,2,1"; q1_4="-k 1 --cells 10,10,5 -r 7 --upper 2,2,1"
run() {  # run <name> <np> <binary> <args...>
  local name=$1 np=$2; shift 2
  timeout 60 mpiexec -n $np "$@" --record $R/$name.json --overwrite > $R/$name.txt 2>&1
  echo "$name exit $? | $(grep -E '^  (iterations|replicated levels|setup time|solve time)' $R/$name.txt | tr -s ' ' | cut -c1-70 | tr '\n' '|')"
}
for q in q3 q7; do
  one=${q}_1; four=${q}_4
  run $q-np1 1 $P $C ${!one} --solver fmg --repeat 3
  run $q-np1-timed 1 $P $C ${!one} --solver fmg --mg-times
  run $q-np4-before 4 $B $C ${!four} --solver fmg --repeat 3
  run $q-np4 4 $P $C ${!four} --solver fmg --repeat 3
  run $q-np4-timed 4 $P $C ${!four} --solver fmg --mg-times
  run $q-np4-staged 4 $P $C ${!four} --solver fmg --repeat 3 --halo-transport staged
  for rep in 5e5 3e6 2e7; do
    run $q-np4-rep$rep 4 $P $C ${!four} --solver fmg --repeat 3 --replicate-below-dofs $rep
  done
  run $q-np4-rep3e6-timed 4 $P $C ${!four} --solver fmg --mg-times --replicate-below-dofs 3e6
  run $q-np4-before-again 4 $B $C ${!four} --solver fmg --repeat 3
done
run q7-gmres-np4-before 4 $B $C $q7_4 --solver gmres --preconditioner mg --repeat 3
run q7-gmres-np4 4 $P $C $q7_4 --solver gmres --preconditioner mg --repeat 3
run q1-np4-before 4 $B $C $q1_4 --solver fmg --repeat 3
run q1-np4 4 $P $C $q1_4 --solver fmg --repeat 3
run q1-np4-rep3e6 4 $P $C $q1_4 --solver fmg --repeat 3 --replicate-below-dofs 3e6
tar cJf $OUT/call1.tar.xz -C $OUT r && rm -rf $R
