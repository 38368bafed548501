#!/usr/bin/env python3
"""Independent count of the records of GH Archive files, to compare with ghsift's.

Reads each gzip file with Python's own gzip and json modules: every top-level JSON object is
a record, whether it sits alone on its line or is glued to the next one (`}{`). A record whose
`id` was already seen in the same file is a duplicate and counted once. A record's repository is
its `repo.id` / `repository.id`, or where it has none (mid-2012) its name, "owner/name" read
case-insensitively from `repository` (or its `url`): ids, not names, since two repositories can
hold one name in turn. Records without either count as one more "repository" (none). Prints one JSON object:
{"events": N, "duplicates": D, "bad": B, "repositories": R, "events_by_type": {type: n}}.
"""
import gzip
import json
import sys
from collections import Counter


def full_name(name):
    """"owner/name" in lower case, or None when `name` is not of that form."""
    if not isinstance(name, str):
        return None
    parts = name.split("/")
    return name.lower() if len(parts) == 2 and all(parts) else None


def repository_of(record):
    for key in ("repo", "repository"):
        repo = record.get(key)
        if not isinstance(repo, dict):
            continue
        if repo.get("id"):
            return ("id", repo["id"])
        if key == "repo":
            name = full_name(repo.get("name"))
        else:
            name = full_name(f"{repo.get('owner') or ''}/{repo.get('name') or ''}")
            url = repo.get("url") or ""
            if name is None and url.startswith("https://github.com/"):
                name = full_name(url[len("https://github.com/"):])
        if name is not None:
            return ("name", name)
    return None


def count_file(path, by_type, repositories):
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
        repositories.add(repository_of(record))
    return duplicates, bad


def main(paths):
    by_type = Counter()
    repositories = set()
    duplicates = bad = 0
    for path in paths:
        d, b = count_file(path, by_type, repositories)
        duplicates += d
        bad += b
    print(json.dumps({"events": sum(by_type.values()), "duplicates": duplicates, "bad": bad,
                      "repositories": len(repositories), "events_by_type": dict(sorted(by_type.items()))}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
