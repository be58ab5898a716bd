#!/usr/bin/env bash
# Builds and installs Kokkos 3.4.01 and Kokkos Kernels 3.4.01 for one tensormg backend.
#
# The only Kokkos reachable from a Debian bookworm machine is the copy inside Debian's `trilinos`
# source package (13.2.0-4). This script
#   1. obtains it with `apt-get source` through a private apt configuration whose deb-src entries are
#      derived from this machine's own source list (nothing outside the repository is modified),
#   2. extracts only packages/kokkos and packages/kokkos-kernels into <repo>/.deps/src,
#   3. applies our patches from cmake/patches/ to a fresh copy per build,
#   4. configures, builds and installs both into <repo>/.deps/<backend>[-<arch>] and stamps the
#      prefix, so a second run with the same configuration returns at once.
# Offline (the GPU machine has no registry): carry <repo>/.deps/src there, or pass --source DIR with
# DIR holding kokkos/ and kokkos-kernels/; step 1 is skipped whenever the sources are present.
#
# Usage: cmake/bootstrap-kokkos.sh --backend openmp|cuda [--arch HOPPER90|AMPERE80]
#                                  [--prefix DIR] [--source DIR] [--jobs N]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
backend=""
arch="HOPPER90"
prefix=""
source_dir="$repo/.deps/src"
jobs=$(nproc 2>/dev/null || echo 2)

die() { echo "bootstrap-kokkos: error: $*" >&2; exit 1; }
log() { echo "bootstrap-kokkos: $*"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backend="$2"; shift 2 ;;
    --arch) arch="$2"; shift 2 ;;
    --prefix) prefix="$2"; shift 2 ;;
    --source) source_dir="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done

case "$backend" in
  openmp) build_name="openmp" ;;
  cuda)
    case "$arch" in
      HOPPER90|AMPERE80) ;;
      *) die "--arch '$arch' is not supported; use HOPPER90 (sm_90, H100/H200) or AMPERE80 (sm_80, A100)" ;;
    esac
    build_name="cuda-$(echo "$arch" | tr 'A-Z' 'a-z')" ;;
  *) die "--backend must be 'openmp' or 'cuda' (given: '${backend}')" ;;
esac
[ -n "$prefix" ] || prefix="$repo/.deps/$build_name"
work="$repo/.deps/build/$build_name"

# ---------------------------------------------------------------------------------------------
# 1+2. Sources.
fetch_sources() {
  command -v apt-get >/dev/null || die "no Kokkos sources in '$source_dir' and no apt-get to fetch them; carry .deps/src from a Debian machine or pass --source"
  command -v dpkg-source >/dev/null || die "apt-get source needs dpkg-dev (apt-get install dpkg-dev)"
  local apt="$repo/.deps/apt"
  rm -rf "$apt"
  mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/download"
  # deb-src entries derived from the machine's own list, in whichever format it uses.
  local found=0
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed -E 's/^Types:.*$/Types: deb-src/' "$f" > "$apt/parts/$(basename "$f")"
    found=1
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    grep -E '^[[:space:]]*deb[[:space:]]' "$f" | sed -E 's/^[[:space:]]*deb[[:space:]]/deb-src /' \
      > "$apt/parts/$(basename "$f" .list)-src.list" || true
    [ -s "$apt/parts/$(basename "$f" .list)-src.list" ] && found=1
  done
  [ "$found" = 1 ] || die "found no Debian source list under /etc/apt to derive deb-src entries from"
  local opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt/parts"
              -o "Dir::State::Lists=$apt/lists" -o "APT::Sandbox::User=root")
  log "fetching Debian's trilinos source package (Kokkos 3.4.01 lives inside it)"
  apt-get "${opts[@]}" update -qq || die "apt-get update with deb-src entries failed"
  (cd "$apt/download" && apt-get "${opts[@]}" source --download-only trilinos=13.2.0-4) \
    || die "apt-get source trilinos=13.2.0-4 failed"
  local tarball
  tarball=$(ls "$apt/download"/trilinos_13.2.0.orig.tar.* 2>/dev/null | head -n1)
  [ -n "$tarball" ] || die "trilinos orig tarball not found after download"
  local tmp="$repo/.deps/extract"
  rm -rf "$tmp"; mkdir -p "$tmp"
  tar -xf "$tarball" -C "$tmp" --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  mkdir -p "$source_dir"
  rm -rf "$source_dir/kokkos" "$source_dir/kokkos-kernels"
  mv "$tmp"/*/packages/kokkos "$source_dir/kokkos"
  mv "$tmp"/*/packages/kokkos-kernels "$source_dir/kokkos-kernels"
  rm -rf "$tmp" "$apt"
}

if [ ! -f "$source_dir/kokkos/CMakeLists.txt" ] || [ ! -f "$source_dir/kokkos-kernels/CMakeLists.txt" ]; then
  fetch_sources
fi
grep -q "3.4.01" "$source_dir/kokkos/master_history.txt" \
  || die "'$source_dir/kokkos' is not Kokkos 3.4.01 (master_history.txt has no 3.4.01 tag)"

# ---------------------------------------------------------------------------------------------
# Reuse an install whose stamp matches this configuration.
patch_sum=$(cat "$here"/patches/*.patch | sha256sum | cut -c1-16)
cxx_for_stamp=$(${CXX:-g++} --version 2>/dev/null | head -n1 || true)
nvcc_for_stamp=""
[ "$backend" = cuda ] && nvcc_for_stamp=$(nvcc --version 2>/dev/null | tail -n1 || true)
stamp="kokkos=3.4.01 kokkos-kernels=3.4.01 backend=$backend arch=$arch patches=$patch_sum cxx=$cxx_for_stamp nvcc=$nvcc_for_stamp"
if [ -f "$prefix/.tensormg-stamp" ] && [ "$(cat "$prefix/.tensormg-stamp")" = "$stamp" ]; then
  log "reusing $prefix"
  exit 0
fi

# ---------------------------------------------------------------------------------------------
# 3. Patched copies.
rm -rf "$work"
mkdir -p "$work"
cp -r "$source_dir/kokkos" "$work/kokkos-src"
cp -r "$source_dir/kokkos-kernels" "$work/kokkos-kernels-src"
for p in "$here"/patches/kokkos-3.4.01-*.patch; do
  log "applying $(basename "$p")"
  patch -s -p1 -d "$work/kokkos-src" < "$p" || die "patch $(basename "$p") does not apply"
done
for p in "$here"/patches/kokkos-kernels-3.4.01-*.patch; do
  [ -f "$p" ] || continue
  log "applying $(basename "$p")"
  patch -s -p1 -d "$work/kokkos-kernels-src" < "$p" || die "patch $(basename "$p") does not apply"
done

# ---------------------------------------------------------------------------------------------
# 4. Configure, build, install.
common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD=17
        -DCMAKE_CXX_EXTENSIONS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
case "$backend" in
  openmp)
    kokkos_opts=(-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON -DCMAKE_CXX_COMPILER="${CXX:-g++}") ;;
  cuda)
    command -v nvcc >/dev/null || die "CUDA backend needs nvcc on PATH"
    chmod +x "$work/kokkos-src/bin/nvcc_wrapper"
    kokkos_opts=(-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON
                 -DKokkos_ENABLE_CUDA_CONSTEXPR=ON "-DKokkos_ARCH_${arch}=ON"
                 -DCMAKE_CXX_COMPILER="$work/kokkos-src/bin/nvcc_wrapper") ;;
esac

log "configuring Kokkos ($build_name)"
cmake -S "$work/kokkos-src" -B "$work/kokkos-build" "${common[@]}" "${kokkos_opts[@]}" \
  > "$work/kokkos-configure.log" 2>&1 || { tail -n 40 "$work/kokkos-configure.log"; die "Kokkos configure failed (log: $work/kokkos-configure.log)"; }
log "building Kokkos with $jobs jobs"
cmake --build "$work/kokkos-build" -j "$jobs" > "$work/kokkos-build.log" 2>&1 \
  || { grep -m 20 -E "error" "$work/kokkos-build.log" || tail -n 40 "$work/kokkos-build.log"; die "Kokkos build failed (log: $work/kokkos-build.log)"; }
cmake --install "$work/kokkos-build" > /dev/null

kk_compiler="${CXX:-g++}"
[ "$backend" = cuda ] && kk_compiler="$prefix/bin/nvcc_wrapper"
log "configuring Kokkos Kernels (no ETI, no TPLs)"
cmake -S "$work/kokkos-kernels-src" -B "$work/kokkos-kernels-build" "${common[@]}" \
  -DCMAKE_CXX_COMPILER="$kk_compiler" -DKokkos_ROOT="$prefix" \
  -DKokkosKernels_ADD_DEFAULT_ETI=OFF -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF \
  -DKokkosKernels_ENABLE_TPL_BLAS=OFF -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF \
  -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF \
  > "$work/kokkos-kernels-configure.log" 2>&1 \
  || { tail -n 40 "$work/kokkos-kernels-configure.log"; die "Kokkos Kernels configure failed (log: $work/kokkos-kernels-configure.log)"; }
log "building Kokkos Kernels"
cmake --build "$work/kokkos-kernels-build" -j "$jobs" > "$work/kokkos-kernels-build.log" 2>&1 \
  || { grep -m 20 -E "error" "$work/kokkos-kernels-build.log" || tail -n 40 "$work/kokkos-kernels-build.log"; die "Kokkos Kernels build failed (log: $work/kokkos-kernels-build.log)"; }
cmake --install "$work/kokkos-kernels-build" > /dev/null

echo "$stamp" > "$prefix/.tensormg-stamp"
rm -rf "$work"
log "installed into $prefix"
