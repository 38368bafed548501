#!/usr/bin/env bash
# The checks .ci/run adds after the test suite, for as long as CI's time allows:
#
#   1. a libFuzzer smoke run of every fuzz target (tools/fuzz.sh --smoke),
#   2. the whole test suite under ThreadSanitizer (tools/sanitize.sh tsan),
#   3. the whole test suite under AddressSanitizer + UBSan (tools/sanitize.sh asan).
#
#   tools/ci_extras.sh [--budget-minutes 75] [--started EPOCH_SECONDS]
#
# Each step's whole output is in build-ci-logs/ (fuzz.log, tsan.log, asan.log).
#
# CI stops a run after 90 minutes, and each sanitizer build alone takes about 20 minutes on two
# cores. So every step gets what is left of the budget (counted from --started, default now): a
# step that runs out of time is stopped with its whole process group and reported as skipped,
# which does not fail CI; a step that finds a problem (a crash, a race, a failing test) does.
# A test that fails under a sanitizer is run once more: failing twice fails CI, failing once is
# reported with its output (a race seen once is still a race to look into).
set -euo pipefail
cd "$(dirname "$0")/.."

budget_minutes=75
started=$(date +%s)
while [[ $# -gt 0 ]]; do
  case "$1" in
    --budget-minutes) budget_minutes=$2; shift 2 ;;
    --started) started=$2; shift 2 ;;
    *) echo "usage: tools/ci_extras.sh [--budget-minutes N] [--started EPOCH_SECONDS]" >&2; exit 2 ;;
  esac
done
deadline=$((started + budget_minutes * 60))
summary=()

logs=build-ci-logs
mkdir -p "$logs"

# step NAME LOG COMMAND...: runs COMMAND in its own process group until the deadline. Its output
# goes to LOG (shown in part at the end), so that nothing it leaves behind holds CI's output open.
step() {
  local name=$1 log_name=$2 log=$logs/$2; shift 2
  local left=$((deadline - $(date +%s)))
  if ((left < 120)); then
    summary+=("$name: skipped (less than 2 minutes of the CI budget left)")
    return 0
  fi
  echo "ci_extras: $name (at most $((left / 60)) minutes left)"
  local begin; begin=$(date +%s)
  setsid "$@" >"$log" 2>&1 </dev/null &
  local pid=$!
  ( sleep "$left"; kill -TERM -- "-$pid" 2>/dev/null; sleep 20; kill -KILL -- "-$pid" 2>/dev/null ) &
  local watchdog=$!
  local status=0
  wait "$pid" || status=$?
  kill "$watchdog" 2>/dev/null || true
  wait "$watchdog" 2>/dev/null || true
  local took=$(($(date +%s) - begin))
  tail -n 15 "$log" | sed "s|^|  $log_name: |"
  if (($(date +%s) >= deadline)); then
    summary+=("$name: skipped after $took s (the CI budget ran out before it finished)")
  elif ((status != 0)); then
    show_failures "$log" "$log_name"
    summary+=("$name: FAILED (status $status, $took s)")
    printf 'ci_extras: %s\n' "${summary[@]}"
    exit 1
  elif grep -q -E "$failure_marks" "$log"; then
    # A test that failed once and passed when run again (the sanitizer suites run each failing
    # test a second time): not a CI failure, but shown whole so that it is seen and looked into.
    show_failures "$log" "$log_name"
    summary+=("$name: passed in $took s, but a test failed once and passed on its second run (output above)")
  else
    summary+=("$name: passed in $took s")
  fi
}

failure_marks='\*\*\*(Failed|Exception|Timeout)|(WARNING|ERROR): [A-Za-z]+Sanitizer'

# show_failures LOG NAME: the last lines rarely say why a step failed: shows each failing test's
# own output (ctest prints it after the test's result line) and the first sanitizer report.
show_failures() {
  grep -n -m 3 -A 80 -E "$failure_marks" "$1" | head -n 240 | sed "s|^|  $2: |" || true
}

step "fuzz smoke (10 s per target)" fuzz.log tools/fuzz.sh --smoke
step "test suite under ThreadSanitizer" tsan.log tools/sanitize.sh tsan --repeat until-pass:2
step "test suite under AddressSanitizer + UBSan" asan.log tools/sanitize.sh asan --repeat until-pass:2
printf 'ci_extras: %s\n' "${summary[@]}"
