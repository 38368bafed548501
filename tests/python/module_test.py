"""The Python module's DataFrames equal the CLI's CSV for the same arguments.

Ingests tests/data/sample with the ghsift binary, then for each case runs `ghsift <command> ...
--format csv`, reads its output with pandas and compares it with the module's DataFrame: the same
columns, dtypes and values, exactly. Also the module's errors and notes, and the module installed
by `cmake --install`. Exit 77 (a CTest skip) without pandas.
"""

import argparse
import io
import os
import shutil
import subprocess
import sys
import warnings

try:
    import numpy as np
    import pandas as pd
except ImportError as error:
    print(f"skipped: {error} (install python3-pandas)")
    sys.exit(77)

import ghsift

parser = argparse.ArgumentParser()
parser.add_argument("--ghsift", required=True, help="the ghsift binary")
parser.add_argument("--sample", required=True, help="tests/data/sample")
parser.add_argument("--work", required=True, help="a directory the test may replace")
parser.add_argument("--cmake", required=True, help="cmake, to install the build tree")
parser.add_argument("--build", required=True, help="the build tree")
paths = parser.parse_args()

shutil.rmtree(paths.work, ignore_errors=True)
os.makedirs(paths.work)
store = os.path.join(paths.work, "store")
subprocess.run([paths.ghsift, "ingest", "-q", "--store", store, paths.sample], check=True)

failures = []


def cli_frame(command, options, floats):
    """The CLI's CSV read by pandas: text as written (an empty cell is ""), except empty cells of
    the columns the module made float, which are NaN."""
    # Bytes, decoded as they are: text mode would turn a report's "\r\n" into "\n".
    run = subprocess.run([paths.ghsift, command] + ghsift.cli_args(store, options), capture_output=True)
    if run.returncode not in (0, 1):
        raise AssertionError(f"ghsift {command} failed: {run.stderr.decode()}")
    return pd.read_csv(io.StringIO(run.stdout.decode("utf-8"), newline=""), keep_default_na=False,
                       na_values={c: [""] for c in floats}, float_precision="round_trip")


def check(name, command, options, expect_rows=None, expect_dtypes=None):
    """The module's frame against the CLI's; `expect_rows` and `expect_dtypes` pin the case, so that
    two empty or untyped frames cannot pass for equal."""
    frame = getattr(ghsift, command)(store, **options)
    floats = [c for c in frame.columns if frame[c].dtype == np.float64]
    expected = cli_frame(command, options, floats)
    try:
        pd.testing.assert_frame_equal(frame, expected, check_exact=True, check_index_type=len(frame) > 0)
        if expect_rows is not None:
            assert len(frame) == expect_rows, f"{len(frame)} rows, expected {expect_rows}"
        for column, dtype in (expect_dtypes or {}).items():
            assert str(frame[column].dtype) == dtype, f"{column} is {frame[column].dtype}, expected {dtype}"
    except AssertionError as error:
        failures.append(f"{name}: {error}")
        return frame
    print(f"ok: {name} ({len(frame)} rows, {len(frame.columns)} columns)")
    return frame


def check_error(name, call, kind, text):
    try:
        call()
    except kind as error:
        if str(error).startswith("ghsift: ") and text in str(error):
            print(f"ok: {name}")
            return
        failures.append(f"{name}: message {str(error)!r} lacks {text!r}")
        return
    except Exception as error:  # noqa: BLE001: the wrong kind is the failure reported
        failures.append(f"{name}: raised {type(error).__name__}: {error}, expected {kind.__name__}")
        return
    failures.append(f"{name}: raised nothing, expected {kind.__name__}")


by_repo = check("query by repo, category", "query", dict(by=["repo", "category"]),
                expect_dtypes={"repo": "object", "category": "object", "issues": "int64"})
if by_repo["issues"].sum() <= 0:
    failures.append("query by repo, category: no reports counted")
check("query total", "query", dict(), expect_rows=1, expect_dtypes={"issues": "int64"})
check("query events by type", "query", dict(by="type", metric="events"), expect_dtypes={"events": "int64"})
check("query closed by month", "query", dict(by=["month"], metric="closed", kind="all"))
check("query median days to close", "query", dict(by=["repo"], metric="median_days_to_close", kind="all"))
check("query two metrics, zeros filled", "query", dict(by=["month"], metric=["issues", "closed"], fill_zeros=True),
      expect_dtypes={"month": "object", "issues": "int64", "closed": "int64"})
check("query nothing matches", "query", dict(by=["repo"], **{"from": "2001-01", "to": "2001-02"}), expect_rows=0)

listed = check("issues (all flagged)", "issues", dict(limit=0),
               expect_dtypes={"Number": "int64", "score": "float64", "Title": "object", "class": "object"})
categories = sorted({c for cell in listed["categories"] for c in cell.split(";") if c})
if not categories:
    failures.append("issues: the sample store has no flagged report")
check("issues limit 2", "issues", dict(limit=2), expect_rows=min(2, len(listed)))
# A frame holds every report unless cut: the CLI's 50 rows are a screenful.
if len(ghsift.issues(store)) != len(listed):
    failures.append(f"issues without limit: {len(ghsift.issues(store))} rows, expected all {len(listed)}")
else:
    print("ok: issues without limit gives every report")
# Open reports have no time to close: the column is NaN throughout, still a number column.
open_reports = check("issues open", "issues", dict(limit=0, state="open"), expect_dtypes={"days_to_close": "float64"})
if len(open_reports) == 0 or not open_reports["days_to_close"].isna().all():
    failures.append("issues open: expected open reports, each without days_to_close")
for category in categories:
    rows = int(listed["categories"].str.split(";").apply(lambda cats, c=category: c in cats).sum())
    check(f"issues --category {category}", "issues", dict(category=category, limit=0, sort="score"), expect_rows=rows)
    check(f"sample --category {category}", "sample",
          dict(category=category, n=3, seed=7, stratify="repo"), expect_rows=min(3, rows))
check("sample by Cochran's size", "sample", dict(category=categories[0], seed=1, confidence=0.9, margin=0.2))

# A list item with a comma in it (GitHub allows one in a label's name) stays one item: "\\,".
label_args = ghsift.cli_args(None, dict(label=["needs info, urgent", "bug"]))
if label_args == ["--label", "needs info\\, urgent,bug", "--format", "csv"]:
    print("ok: a comma inside a list item is escaped")
else:
    failures.append(f"cli_args of a label with a comma: {label_args!r}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ghsift.issues(store, limit=2)
notes = [str(w.message) for w in caught if issubclass(w.category, ghsift.GhsiftNote)]
expected_note = f"ghsift: showing 2 of {len(listed)}; --limit 0 for all"
if expected_note in notes:
    print("ok: a cut list is a GhsiftNote warning")
else:
    failures.append(f"notes: {notes!r} lack {expected_note!r}")

# `rules eval` as a table: two groups of three labeled titles and a rule file, the data of
# tests/cli/rules_tuning_cli_test.cpp, whose figures it pins: alpha is missed when held out (F1 0),
# beta found with one false positive (0.667); the word list "leak" finds alpha's two positives
# (1.0) and only beta's negative (0).
labeled_dir = os.path.join(paths.work, "labeled")
os.makedirs(labeled_dir)
for name, text in {
        "r.yaml": "rules:\n  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b', flags: [caseless]}\n"
                  "  - {id: p.leak, tag: performance/memory, pattern: '\\bleak\\b', weight: 0.5}\n",
        "alpha.jsonl": '{"title":"a leak in fit","class":1}\n{"title":"leak after epoch","class":1}\n'
                       '{"title":"docs typo","class":0}\n',
        "beta.jsonl": '{"title":"slow predict","class":1}\n{"title":"a leak question","class":0}\n'
                      '{"title":"build fails","class":0}\n',
        "words.txt": "leak\n"}.items():
    with open(os.path.join(labeled_dir, name), "w") as f:
        f.write(text)
eval_options = dict(labels=[os.path.join(labeled_dir, "alpha.jsonl"), os.path.join(labeled_dir, "beta.jsonl")],
                    positive="performance", objective="f1", rules=[os.path.join(labeled_dir, "r.yaml")],
                    reference=["performance=" + os.path.join(labeled_dir, "words.txt")])
try:
    frame = ghsift.rules_eval(**eval_options)
    floats = [c for c in frame.columns if frame[c].dtype == np.float64]
    run = subprocess.run([paths.ghsift, "rules", "eval"] +
                         ghsift.cli_args(None, eval_options, ("labels", "rules", "reference")),
                         capture_output=True, check=True)
    expected = pd.read_csv(io.StringIO(run.stdout.decode("utf-8"), newline=""), keep_default_na=False,
                           na_values={c: [""] for c in floats}, float_precision="round_trip")
    pd.testing.assert_frame_equal(frame, expected, check_exact=True)
    assert list(frame["group"]) == ["alpha", "beta"], list(frame["group"])
    assert list(frame["logo_objective"]) == [0.0, 0.667], list(frame["logo_objective"])
    assert list(frame["word_list"]) == [1.0, 0.0], list(frame["word_list"])
    assert list(frame["constant"]) == [0.8, 0.5], list(frame["constant"])
    assert np.isnan(frame["logo_precision"][0]), frame["logo_precision"][0]  # alpha flags none held out
    assert abs(frame["logo_objective"].mean() - 0.3335) < 1e-9, frame["logo_objective"].mean()
    # What produced the figures: the line the CLI writes beside its CSV, on the frame, not a warning.
    provenance = run.stderr.decode("utf-8").splitlines()[0]
    assert provenance.startswith("provenance: ghsift "), provenance
    assert frame.attrs["provenance"] == provenance[len("provenance: "):], frame.attrs
    assert "; data 2 files, " in provenance and "and the word lists" in provenance, provenance
    assert "(custom)" in provenance, provenance
    # Without a word list the frame has the same columns, the word list's empty (NaN).
    bare = ghsift.rules_eval(**{k: v for k, v in eval_options.items() if k != "reference"})
    assert list(bare.columns) == list(frame.columns), (list(bare.columns), list(frame.columns))
    assert bare["word_list"].isna().all(), list(bare["word_list"])
    print(f"ok: rules_eval ({len(frame)} rows, {len(frame.columns)} columns)")
except (AssertionError, subprocess.CalledProcessError, ValueError) as error:
    failures.append(f"rules_eval: {error}")

# The commands of ghsift's command table the module runs: each has a function of the package
# (a subcommand's words joined by "_").
functions = [name.replace(" ", "_") for name in ghsift._native.commands()]
if ghsift._native.commands() == ["query", "issues", "rules eval", "sample"] and all(
        callable(getattr(ghsift, name, None)) and name in ghsift.__all__ for name in functions):
    print("ok: the module runs the commands its table row marks, each a function")
else:
    failures.append(f"commands: {ghsift._native.commands()!r} against {ghsift.__all__!r}")
check_error("not a table command", lambda: ghsift._native.table("ingest", []), ValueError,
            "the module runs query, issues, rules eval, sample, not 'ingest'")

check_error("missing store", lambda: ghsift.query(os.path.join(paths.work, "no-store"), by="repo"),
            FileNotFoundError, "no-store")
check_error("bad metric", lambda: ghsift.query(store, metric="sum"), ValueError, "--metric must be")
check_error("unknown option", lambda: ghsift.issues(store, colour="red"), ValueError, "--colour")
# The command's own message, with the closest option (not CLI11's "arguments were not expected").
check_error("misspelt option", lambda: ghsift.issues(store, limt=3), ValueError,
            "ghsift: unknown option --limt for `ghsift issues` (did you mean --limit?)")
check_error("format is the module's", lambda: ghsift.issues(store, format="json"), ValueError, "--format")

# `cmake --install`: the module lands where Debian's python3 looks under a prefix other than /usr
# (lib/python3.X/dist-packages), and works from there.
prefix = os.path.join(paths.work, "prefix")
install = subprocess.run([paths.cmake, "--install", paths.build, "--prefix", prefix], capture_output=True, text=True)
if install.returncode != 0:
    failures.append(f"cmake --install: {install.stdout}{install.stderr}")
installed = os.path.join(prefix, "lib", f"python{sys.version_info.major}.{sys.version_info.minor}", "dist-packages")
total = subprocess.run([sys.executable, "-c", "import ghsift, sys; print(ghsift.query(sys.argv[1]).iloc[0, 0], "
                        "ghsift.__file__)", store], env=dict(os.environ, PYTHONPATH=installed),
                       cwd=paths.work, capture_output=True, text=True)  # not build/python, which holds ghsift too
expected_total = f"{ghsift.query(store).iloc[0, 0]} {os.path.join(installed, 'ghsift', '__init__.py')}"
if total.stdout.strip() == expected_total:
    print("ok: installed under the prefix and imported from there")
else:
    failures.append(f"installed module: {total.stdout.strip()!r}{total.stderr}, expected {expected_total!r}")

if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print("all cases equal the CLI's CSV")
