#!/usr/bin/env python3
"""Prints the shape of GH Archive hour files side by side, one column per file.

    tools/hour_shape.py HOUR.json.gz [HOUR2 ...]

For each file: events, distinct repositories and actors per event, mean bytes per event by
type (the record's bytes plus its newline) and the type mix (% of events). Reads .json.gz,
.json.zst (needs the `zstandard` module) and plain .json. Records glued on one line (`}{`)
are split; lines that do not parse are counted as bad and left out of every other figure.
Both record shapes are understood: Events API (`actor{}`, `repo{}`) and Timeline
(`actor` a login, `repository{owner, name}`).

Use it to check a generator profile against a real hour:

    ghsift gen --profile 2016 --out /tmp/g --events-per-hour 12698
    tools/hour_shape.py /tmp/g/2016-01-01-1.json.gz ../shared/data/gharchive-real/hours/2016-01-01-1.json.gz
"""
import gzip
import io
import json
import os
import sys
from collections import Counter


def open_text(path):
    if path.endswith(".gz"):
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", errors="surrogateescape")
    if path.endswith(".zst"):
        import zstandard  # only needed for .zst inputs

        raw = zstandard.ZstdDecompressor().stream_reader(open(path, "rb"))
        return io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape")
    return open(path, "r", encoding="utf-8", errors="surrogateescape")


def split_records(line):
    """Yields (record, size_in_bytes) for every JSON object on the line; raises on bad text."""
    decoder = json.JSONDecoder()
    at = 0
    n = len(line)
    while at < n:
        obj, end = decoder.raw_decode(line, at)
        if not isinstance(obj, dict):
            raise ValueError("not an object")
        yield obj, len(line[at:end].encode("utf-8", "surrogateescape"))
        at = end
        while at < n and line[at] in " \t\r":
            at += 1


def repo_of(rec):
    repo = rec.get("repo")
    if isinstance(repo, dict):
        return repo.get("id") or repo.get("name")
    repo = rec.get("repository")
    if isinstance(repo, dict):
        return repo.get("id") or "%s/%s" % (repo.get("owner"), repo.get("name"))
    return None


def actor_of(rec):
    actor = rec.get("actor")
    if isinstance(actor, dict):
        return actor.get("id") or actor.get("login")
    return actor  # Timeline era: a login string (or null)


def shape(path):
    types = Counter()
    type_bytes = Counter()
    repos, actors = set(), set()
    bad = 0
    total_bytes = 0
    with open_text(path) as f:
        for line in f:
            body = line.rstrip("\n")
            if not body.strip():
                continue
            try:
                records = list(split_records(body))
            except ValueError:
                bad += 1
                continue
            for i, (rec, size) in enumerate(records):
                # A glued line has one newline for all its records: give it to the last one.
                size += 1 if i == len(records) - 1 else 0
                t = rec.get("type", "?")
                types[t] += 1
                type_bytes[t] += size
                total_bytes += size
                r = repo_of(rec)
                if r is not None:
                    repos.add(r)
                a = actor_of(rec)
                if a is not None:
                    actors.add(a)
    events = sum(types.values())
    return {
        "events": events,
        "bad": bad,
        "bytes": total_bytes,
        "repos": len(repos),
        "actors": len(actors),
        "types": types,
        "type_bytes": type_bytes,
    }


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    paths = argv[1:]
    for p in paths:
        if not os.path.exists(p):
            print("hour_shape.py: %s: no such file" % p, file=sys.stderr)
            return 2
    shapes = [shape(p) for p in paths]
    names = [os.path.basename(os.path.dirname(os.path.abspath(p))) + "/" + os.path.basename(p) for p in paths]
    width = max(16, max(len(n) for n in names) + 2)
    label_w = 32

    def row(label, values):
        print(label.ljust(label_w) + "".join(str(v).rjust(width) for v in values))

    row("", names)
    row("events", [s["events"] for s in shapes])
    row("bad lines", [s["bad"] for s in shapes])
    row("bytes per event", ["%.0f" % (s["bytes"] / max(s["events"], 1)) for s in shapes])
    row("distinct repos", [s["repos"] for s in shapes])
    row("distinct repos / event", ["%.3f" % (s["repos"] / max(s["events"], 1)) for s in shapes])
    row("distinct actors", [s["actors"] for s in shapes])
    row("distinct actors / event", ["%.3f" % (s["actors"] / max(s["events"], 1)) for s in shapes])
    all_types = Counter()
    for s in shapes:
        all_types.update(s["types"])
    order = [t for t, _ in all_types.most_common()]
    print("\nbytes per event by type")
    for t in order:
        row("  " + t, ["%.0f" % (s["type_bytes"][t] / s["types"][t]) if s["types"][t] else "-" for s in shapes])
    print("\ntype mix, % of events")
    for t in order:
        row("  " + t, ["%.2f" % (100.0 * s["types"][t] / max(s["events"], 1)) for s in shapes])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
