#!/usr/bin/env bash
# Writes tests/data/store_format2/: a small store as ghsift wrote it before records carried tagged
# fields (issue records of format 2, latest texts of format 1: up to commit 1d94a39), from made-up
# data (`ghsift gen`), with that ghsift's answers to the questions in questions.txt.
# store_format_test opens it with today's ghsift, asks the same questions, ingests into it (which
# upgrades its records) and asks again: every answer must be the old one.
#
# Usage: tests/store/make_format2_fixture.sh OLD_GHSIFT [OUT_DIR]
#   OLD_GHSIFT  a ghsift built from 1d94a39, e.g.
#               git worktree add /tmp/ghsift-1d94a39 1d94a39 && cd /tmp/ghsift-1d94a39 &&
#               cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build --target ghsift
#               (the checked-in fixture was written by the ghsift of the commit before records got tagged
#               fields, whose record code is 1d94a39's)
set -euo pipefail
old=$1
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/../data/store_format2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$old" gen --out "$work/dumps" --hours 1 --events-per-hour 120 --seed 26 --lifecycle-share 0.5 --pr-share 0.3 \
  --compress gz > /dev/null
# The probe rules (tests/data/probe_rules.yaml): the bundled rules change, and an ingest into a
# store needs the rules it was built with.
"$old" ingest --store "$work/store" --all-repos --rules "$here/../data/probe_rules.yaml" --quiet "$work/dumps" > /dev/null
mkdir -p "$out"
# RocksDB's info logs and options files are no part of the store (ghsift opens it with its own options).
tar -C "$work" --exclude 'LOG' --exclude 'LOG.old.*' --exclude 'OPTIONS-*' --sort=name --owner=0 --group=0 --numeric-owner \
  -czf "$out/store.tar.gz" store
# questions.txt: one `name<TAB>arguments` a line; the store is given as --store STORE.
while IFS=$'\t' read -r name args; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  # shellcheck disable=SC2086  # the arguments are words
  "$old" ${args//STORE/$work/store} > "$out/$name.expected"
done < "$out/questions.txt"
echo "wrote $out: $(du -sh "$out/store.tar.gz" | cut -f1) store, $(ls "$out"/*.expected | wc -l) answers"
