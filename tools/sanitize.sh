#!/usr/bin/env bash
# Builds ghsift with sanitizers and runs the whole test suite under them.
#
#   tools/sanitize.sh asan   # AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer, build-asan/
#   tools/sanitize.sh tsan   # ThreadSanitizer, build-tsan/
#
# Uses the CMakePresets.json presets of the same name (two compile jobs, two test jobs).
# Extra arguments go to ctest (e.g. -R crash_consistency). Suppressions: tools/lsan.supp and
# tools/tsan.supp, each entry documented there.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-}
case "$kind" in
  asan|tsan) shift ;;
  *) echo "usage: tools/sanitize.sh asan|tsan [ctest arguments]" >&2; exit 2 ;;
esac
start=$(date +%s)
cmake --preset "$kind"
cmake --build --preset "$kind"
built=$(date +%s)
# The presets set ASAN/UBSAN/LSAN/TSAN_OPTIONS for ctest; the end-to-end tests run the
# sanitized ghsift binary, which inherits them.
status=0
ctest --preset "$kind" "$@" || status=$?
end=$(date +%s)
echo "sanitize.sh $kind: build $((built - start)) s, tests $((end - built)) s, total $((end - start)) s"
exit $status
