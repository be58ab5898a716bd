#!/usr/bin/env bash
# Installs tensormg's Debian (bookworm) build dependencies. Kokkos itself is not a Debian binary
# package that serves OpenMP or CUDA: CMake builds it from Debian's trilinos source on first
# configure (cmake/bootstrap-kokkos.sh), which needs dpkg-dev for `apt-get source`.
set -euo pipefail
packages=(build-essential cmake git patch python3 dpkg-dev ca-certificates
          libopenmpi-dev openmpi-bin libhdf5-dev libgtest-dev liblapack-dev libcli11-dev
          python3-numpy python3-h5py)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-debian: all packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
