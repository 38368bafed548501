#!/usr/bin/env bash
# Builds ghsift with its tests and runs the whole suite (ctest, two jobs).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh build
cd build
ctest -j 2 --output-on-failure --timeout 600
