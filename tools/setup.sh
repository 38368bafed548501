#!/usr/bin/env bash
# Installs what ghsift needs from Debian's packages (when missing) and builds it.
#   tools/setup.sh [BUILD_DIR] [extra cmake options...]
# BUILD_DIR defaults to build/. Everything is built, tests and benchmarks too, unless
# GHSIFT_BUILD_TARGETS names the targets to build (tools/quickstart.sh: the tool, its man page
# and completions, the Python module; tools/test.sh then builds the rest).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
shift || true

arch="$(dpkg --print-architecture 2>/dev/null || echo amd64)"
regex_pkg=libhyperscan-dev
[ "$arch" = amd64 ] || regex_pkg=libvectorscan-dev   # Hyperscan's maintained fork for ARM
packages=(build-essential cmake ninja-build pkg-config git time
          libtbb-dev libsimdjson-dev "$regex_pkg" libzstd-dev zstd librocksdb-dev
          libisal-dev isal libyaml-cpp-dev libcli11-dev zlib1g-dev libcurl4-openssl-dev
          libgtest-dev libgmock-dev libbenchmark-dev libjemalloc-dev
          libopenmpi-dev openmpi-bin chromium
          python3-dev python3-pybind11 python3-pandas  # the Python module (python/) and its test
          bc python3-yaml  # bench/rule_compile.sh
          util-linux  # setpriv: the store permission tests drop root's capabilities with it
          groff-base  # tests/tools/ghsift/command_docs_test renders the man page to check its width
          lighttpd)  # bench/http_ingest.sh's server; not started as a service (-D, own config)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
if [ -n "${GHSIFT_BUILD_TARGETS:-}" ]; then
  # shellcheck disable=SC2086  # a list of target names
  cmake --build "$build_dir" -j 2 --target ${GHSIFT_BUILD_TARGETS}
else
  cmake --build "$build_dir" -j 2
fi
