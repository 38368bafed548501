"""ghsift for notebooks: a store's answers as pandas DataFrames.

Each function runs the ghsift command of the same name in this process, on a store opened
read-only, and returns the table its ``--format csv`` writes: the same columns and the same
values (the text as the store holds it: without the apostrophe the CSV puts before a cell that a
spreadsheet would take for a formula, such as ``=...``). Keyword arguments are the command's options, ``--`` dropped and ``-`` written ``_``
(``fill_zeros`` is ``--fill-zeros``); a list or tuple is given as a comma list, True as a
flag, None or False leave the option out. Defaults are the command's (``issues`` lists 50
reports unless ``limit=0``). Options added to a command work here with no change.

Columns whose every cell is a whole number are int64, those whose cells are numbers (or empty)
float64 (empty: NaN), the rest str, as ``pandas.read_csv(..., keep_default_na=False)`` reads
the CLI's CSV; a column of numbers (days to close, comment count, ...) whose every cell is empty
is float64 of NaN (days to close of open reports: ``.mean()`` is NaN, not an error).

A missing store raises FileNotFoundError, a bad option or value ValueError, with ghsift's message.
What the command notes on stderr beside its table comes as a GhsiftNote warning.

    import ghsift
    ghsift.query("store", by=["repo", "category"])
    ghsift.issues("store", category="silent", limit=0)
    ghsift.sample("store", category="silent", n=100, seed=7)
    ghsift.rules_eval(suite="tools/labeled_suite.yaml", data="../shared/data/labeled")
"""

import os
import warnings

from . import _native

__all__ = ["query", "issues", "sample", "rules_eval", "cli_args", "GhsiftNote"]


# The line `rules eval` writes beside its CSV: what produced the figures (version, rule set digest,
# data digest, bootstrap). It goes to the frame's ``attrs["provenance"]``, not a warning.
_PROVENANCE = "provenance: "


class GhsiftNote(UserWarning):
    """What the command says on stderr beside its table (a list cut by ``limit``, months the
    archive is blind for, reports without kept text), given as a warning."""


def cli_args(store, options, repeated=()):
    """The command-line arguments for keyword ``options`` (see the module's help); no ``--store``
    when ``store`` is None. A list for an option named in ``repeated`` gives the option once per
    item (files, rule layers), any other list one comma list, a comma inside an item written
    ``\\,`` as the command reads it (``label=['needs info, urgent']``)."""
    args = [] if store is None else ["--store", os.fspath(store)]
    for name, value in options.items():
        if name in ("format", "out"):
            raise ValueError(f"ghsift: --{name} is the module's own choice; it returns a DataFrame")
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)) and name in repeated:
            for item in value:
                args += [flag, os.fspath(item)]
        elif isinstance(value, (list, tuple)):
            args += [flag, ",".join(str(v).replace(",", "\\,") for v in value)]
        else:
            args += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return args + ["--format", "csv"]


def _frame(command, store, options, repeated=()):
    import pandas as pd  # only here: `import ghsift` works without pandas

    columns, values, notes = _native.table(command, cli_args(store, options, repeated))
    provenance = None
    for note in notes:  # e.g. "ghsift: showing 50 of 72; --limit 0 for all"
        if note.startswith(_PROVENANCE):
            provenance = note[len(_PROVENANCE):]
        else:
            warnings.warn(note, GhsiftNote, stacklevel=3)
    data = {}
    for name, column in zip(columns, values):
        data[name] = pd.Series(column, dtype=None if hasattr(column, "dtype") else object)
    frame = pd.DataFrame(data, columns=columns)
    if provenance is not None:
        frame.attrs["provenance"] = provenance
    return frame


def query(store, by=None, metric="issues", **options):
    """``ghsift query``: counts (or medians) of reports or events grouped by ``by``, a list of
    dimensions (repo, month, category, ...; none: one total). ``metric`` may be a list (one column
    each); ``fill_zeros=True`` adds the groups without reports with 0. Other options: category,
    subcategory, repo, kind, from_ (or ``**{"from": "2024-01"}``), to, scan, ..."""
    if "from_" in options:
        options["from"] = options.pop("from_")
    return _frame("query", store, dict(by=by, metric=metric, **options))


def issues(store, **options):
    """``ghsift issues --format csv``: flagged reports, one a row, with their kept text and every
    column the CLI's CSV has. Options: category, subcategory, repo, state, since, until, sort,
    kind, limit (default 0: every report; the CLI's 50 rows are a screenful, a frame is for
    analysis), ..."""
    options.setdefault("limit", 0)
    return _frame("issues", store, options)


def sample(store, category, seed, n=None, **options):
    """``ghsift sample``: a reproducible (stratified) sample of flagged reports to label. Without
    ``n``, Cochran's size from ``confidence`` and ``margin``. Options: stratify, kind, ..."""
    return _frame("sample", store, dict(category=category, seed=seed, n=n, **options))


def rules_eval(suite=None, labels=None, **options):
    """``ghsift rules eval --format csv``: one row per labeled group, the table a study quotes:
    the group's target, reports and positives, the rules its held-out score leaves out, then
    precision, recall, F1, macro-F1 and the group's objective leave-one-group-out (``logo_*``, with
    its 95% interval) and in-sample (``in_sample_*``), the word lists' objective (``word_list``)
    and the constant answer's. A figure that cannot be computed is NaN, so ``frame.logo_objective
    .mean()`` is the mean over groups the CLI prints. Give ``suite`` (a suite YAML, with ``data``
    the folder its paths are read from) or ``labels`` (files, with ``positive``, ``objective``,
    ``group_by``, ...); ``rules`` and ``reference`` take a list (one layer or word list each).
    ``frame.attrs["provenance"]`` says what produced the figures: the ghsift version, the rule
    set's digest (as ``ghsift stats`` shows it), the labeled data's digest and the bootstrap."""
    return _frame("rules eval", None, dict(suite=suite, labels=labels, **options),
                  repeated=("labels", "rules", "reference"))
