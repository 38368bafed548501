#!/usr/bin/env bash
# Quick start: install, build, ingest the bundled sample into ./store, print flagged reports
# per repository and category.
set -euo pipefail
cd "$(dirname "$0")/.."
# What a user runs and installs (`cmake --install build`); tools/test.sh builds the tests and
# benchmarks, about half of the build's time. setup.sh installs pybind11, so the module's target
# is there.
GHSIFT_BUILD_TARGETS="ghsift ghsift_docs ghsift_python" tools/setup.sh build
ghsift=build/tools/ghsift/ghsift
rm -rf store
"$ghsift" ingest --store store tests/data/sample
echo
echo "Flagged issue reports per repository and category (tracked repositories, rules/repos.txt):"
"$ghsift" query --store store --by repo,category
echo
echo "Next: $ghsift issues --store store --category silent   |   $ghsift query --store store --metric events --by type"
