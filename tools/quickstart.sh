#!/usr/bin/env bash
# Quick start: install, build, ingest the bundled sample into ./store, print flagged reports
# per repository and category.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh build
ghsift=build/tools/ghsift/ghsift
rm -rf store
"$ghsift" ingest --store store tests/data/sample
echo
echo "Flagged issue reports per repository and category (tracked repositories, rules/repos.txt):"
"$ghsift" query --store store --by repo,category
echo
echo "Next: $ghsift issues --store store --category silent   |   $ghsift query --store store --metric events --by type"
