#!/usr/bin/env python3
"""Independent count of the records of GH Archive files, to compare with ghsift's.

Reads each gzip file with Python's own gzip and json modules: every top-level JSON object is
a record, whether it sits alone on its line or is glued to the next one (`}{`). A record whose
`id` was already seen in the same file is a duplicate and counted once. Prints one JSON object:
{"events": N, "duplicates": D, "bad": B, "events_by_type": {type: n}}.
"""
import gzip
import json
import sys
from collections import Counter


def count_file(path, by_type):
    decoder = json.JSONDecoder()
    with gzip.open(path, "rt", encoding="utf-8", errors="surrogatepass") as f:
        text = f.read()
    seen_ids = set()
    duplicates = bad = 0
    pos, end = 0, len(text)
    while pos < end:
        while pos < end and text[pos] in " \t\r\n":
            pos += 1
        if pos >= end:
            break
        try:
            record, pos = decoder.raw_decode(text, pos)
        except ValueError:
            bad += 1
            newline = text.find("\n", pos)
            pos = end if newline < 0 else newline + 1
            continue
        event_id = record.get("id") if isinstance(record, dict) else None
        if event_id is not None:
            if event_id in seen_ids:
                duplicates += 1
                continue
            seen_ids.add(event_id)
        by_type[record.get("type")] += 1
    return duplicates, bad


def main(paths):
    by_type = Counter()
    duplicates = bad = 0
    for path in paths:
        d, b = count_file(path, by_type)
        duplicates += d
        bad += b
    print(json.dumps({"events": sum(by_type.values()), "duplicates": duplicates, "bad": bad,
                      "events_by_type": dict(sorted(by_type.items()))}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
