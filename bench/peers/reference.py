#!/usr/bin/env python3
"""The peers' answer computed independently (Python's gzip, json and re), to check them before timing.

    python3 reference.py --files LIST

Prints {"peer": "reference", "reports": N, "repos": M} for the files of LIST (one path a line):
the same question as chdb.cjs and duckdb.cjs (distinct (repo, number) among issue and pull request
reports whose title, body or comment matches the words of words.txt, case-insensitive, as whole
words). Python's re with ASCII and IGNORECASE stands for RE2's (?i) and \\b: they differ only on a
few non-ASCII letters that fold to ASCII ones (the long s, the Kelvin sign).
"""
import argparse
import gzip
import json
import os
import re

TYPES = (b'"IssuesEvent"', b'"IssueCommentEvent"', b'"PullRequestEvent"')


def Words():
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "words.txt"), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def Texts(event):
    """(number, texts) of a report event, or None."""
    kind = event.get("type")
    payload = event.get("payload")
    if not isinstance(payload, dict):
        return None
    if kind == "PullRequestEvent":
        report = payload.get("pull_request")
        texts = ("title", "body")
    elif kind in ("IssuesEvent", "IssueCommentEvent"):
        report = payload.get("issue")
        texts = ("title", "body")
    else:
        return None
    if not isinstance(report, dict) or not isinstance(report.get("number"), int):
        return None
    found = [report.get(t) for t in texts]
    comment = payload.get("comment") if kind != "PullRequestEvent" else None
    if isinstance(comment, dict):
        found.append(comment.get("body"))
    return report["number"], [t for t in found if isinstance(t, str)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", required=True)
    args = parser.parse_args()
    pattern = re.compile(r"\b(" + "|".join(Words()) + r")\b", re.ASCII | re.IGNORECASE)
    flagged = set()
    with open(args.files, encoding="utf-8") as f:
        paths = [line.strip() for line in f if line.strip()]
    for path in paths:
        with gzip.open(path, "rb") as lines:
            for line in lines:
                if not any(t in line for t in TYPES):
                    continue
                try:
                    event = json.loads(line)
                except ValueError:
                    continue  # as the peers, which skip a line they cannot read
                found = Texts(event) if isinstance(event, dict) else None
                repo = event.get("repo") if isinstance(event, dict) else None
                if found is None or not isinstance(repo, dict) or not isinstance(repo.get("name"), str):
                    continue
                number, texts = found
                if any(pattern.search(t) for t in texts):
                    flagged.add((repo["name"], number))
    print(json.dumps({"peer": "reference", "reports": len(flagged), "repos": len({r for r, _ in flagged})}))


if __name__ == "__main__":
    main()
