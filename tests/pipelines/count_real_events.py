#!/usr/bin/env python3
"""Independent count of the records of GH Archive files, to compare with ghsift's.

Reads each gzip file with Python's own gzip and json modules: every top-level JSON object is
a record, whether it sits alone on its line or is glued to the next one (`}{`). A record whose
`id` was already seen in the same file is a duplicate and counted once. A record's repository is
its `repo.id` / `repository.id`, or where it has none (mid-2012) its name, "owner/name" read
case-insensitively from `repository` (or its `url`): ids, not names, since two repositories can
hold one name in turn; a 2011 record whose `repo` names none, by the `payload.repo` it gives. Records
without any count as one more "repository" (none). A report is a (repository, number) of an
IssuesEvent, IssueCommentEvent or PullRequestEvent, or of a pull request review comment or review
that has a text (see report_number). Prints one JSON object:
{"events": N, "duplicates": D, "bad": B, "repositories": R, "reports": P, "events_by_type": {type: n}}.
"""
import gzip
import json
import re
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
    # The early Events API (2011-2012) also names it in the payload, where `repo` has none.
    payload = record.get("payload")
    name = full_name(payload.get("repo")) if isinstance(payload, dict) else None
    return ("name", name) if name is not None else None


REPORT_TYPES = ("IssuesEvent", "IssueCommentEvent", "PullRequestEvent")
# Events that are report events only for their text (the `review` field): the payload object
# whose non-empty `body` it is.
TEXT_EVENTS = {"PullRequestReviewCommentEvent": "comment", "PullRequestReviewEvent": "review"}
COMMENT_PAGE = re.compile(r"^https://github\.com/[^/]+/[^/]+/(issues|pull)/([0-9]+)(#|\?|$)")


def report_number(record):
    """The number of the issue or pull request a report event is about, or None.

    The payload's `issue` or `pull_request` object gives it (else the payload's `number`); a
    2012-2014 comment, whose payload holds ids only, gives it in the page address of the record.
    """
    payload = record.get("payload")
    kind = record.get("type")
    if not isinstance(payload, dict) or (kind not in REPORT_TYPES and kind not in TEXT_EVENTS):
        return None
    if kind in TEXT_EVENTS:
        text = payload.get(TEXT_EVENTS[kind])
        if not isinstance(text, dict) or not isinstance(text.get("body"), str) or not text["body"]:
            return None
    if "issue" in payload or "pull_request" in payload:
        for key in ("issue", "pull_request"):
            obj = payload.get(key)
            if isinstance(obj, dict) and isinstance(obj.get("number"), int) and obj["number"] > 0:
                return obj["number"]
        number = payload.get("number")
        return number if isinstance(number, int) and number > 0 else None
    if kind == "IssueCommentEvent" or kind in TEXT_EVENTS:
        page = COMMENT_PAGE.match(record.get("url") or "")
        if page:
            return int(page.group(2))
    return None


def count_file(path, by_type, repositories, reports):
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
        repository = repository_of(record)
        repositories.add(repository)
        number = report_number(record)
        if number is not None:
            reports.add((repository, number))
    return duplicates, bad


def main(paths):
    by_type = Counter()
    repositories = set()
    reports = set()
    duplicates = bad = 0
    for path in paths:
        d, b = count_file(path, by_type, repositories, reports)
        duplicates += d
        bad += b
    print(json.dumps({"events": sum(by_type.values()), "duplicates": duplicates, "bad": bad,
                      "repositories": len(repositories), "reports": len(reports), "events_by_type": dict(sorted(by_type.items()))}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
