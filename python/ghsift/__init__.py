"""ghsift for notebooks: a store's answers as pandas DataFrames.

Each function runs the ghsift command of the same name in this process, on a store opened
read-only, and returns the table its ``--format csv`` writes: the same columns and the same
values. Keyword arguments are the command's options, ``--`` dropped and ``-`` written ``_``
(``created_from`` is ``--created-from``); a list or tuple is given as a comma list, True as a
flag, None or False leave the option out. Defaults are the command's (``issues`` lists 50
reports unless ``limit=0``). Options added to a command work here with no change.

Columns whose every cell is a whole number are int64, those whose cells are numbers (or empty)
float64 (empty: NaN), the rest str, as ``pandas.read_csv(..., keep_default_na=False)`` reads
the CLI's CSV.

A missing store raises FileNotFoundError, a bad option or value ValueError, with ghsift's message.
What the command notes on stderr beside its table comes as a GhsiftNote warning.

    import ghsift
    ghsift.query("store", by=["repo", "category"])
    ghsift.issues("store", category="silent", limit=0)
    ghsift.sample("store", category="silent", n=100, seed=7)
"""

import os
import warnings

from . import _native

__all__ = ["query", "issues", "sample", "cli_args", "GhsiftNote"]


class GhsiftNote(UserWarning):
    """What the command says on stderr beside its table (a list cut by ``limit``, months the
    archive is blind for, reports without kept text), given as a warning."""


def cli_args(store, options):
    """The command-line arguments for keyword ``options`` (see the module's help)."""
    args = ["--store", os.fspath(store)]
    for name, value in options.items():
        if name in ("format", "out"):
            raise ValueError(f"ghsift: --{name} is the module's own choice; it returns a DataFrame")
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            args += [flag, ",".join(str(v) for v in value)]
        else:
            args += [flag, str(value)]
    return args + ["--format", "csv"]


def _frame(command, store, options):
    import pandas as pd  # only here: `import ghsift` works without pandas

    columns, values, notes = _native.table(command, cli_args(store, options))
    for note in notes:  # e.g. "ghsift: showing 50 of 72; --limit 0 for all"
        warnings.warn(note, GhsiftNote, stacklevel=3)
    data = {}
    for name, column in zip(columns, values):
        data[name] = pd.Series(column, dtype=None if hasattr(column, "dtype") else object)
    return pd.DataFrame(data, columns=columns)


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
    kind, limit (default 50; 0 for all), ..."""
    return _frame("issues", store, options)


def sample(store, category, seed, n=None, **options):
    """``ghsift sample``: a reproducible (stratified) sample of flagged reports to label. Without
    ``n``, Cochran's size from ``confidence`` and ``margin``. Options: stratify, kind, ..."""
    return _frame("sample", store, dict(category=category, seed=seed, n=n, **options))
