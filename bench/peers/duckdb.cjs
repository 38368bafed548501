// DuckDB over GH Archive hours: distinct flagged reports per repository, the same question as
// chdb.cjs (see there for what a report and a flag are).
//
//   node duckdb.cjs --threads T --files LIST [--regex RE]      (see common.cjs for the output)
//
// DuckDB reads the gzip files itself (read_ndjson with the schema of the members asked for) and
// matches with regexp_matches (RE2, as ClickHouse's match).
'use strict';
const { Run } = require('./common.cjs');

// Quoted as a standard SQL string literal (no backslash escapes in DuckDB).
const Literal = (s) => `'${s.replace(/'/g, "''")}'`;

Run('duckdb', async ({ threads }) => {
  const { DuckDBInstance } = require('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const con = await db.connect();
  const version = (await con.runAndReadAll('SELECT version()')).getRows()[0][0];
  return {
    version,
    async query({ paths, regex }) {
      const re = Literal(regex);
      // The payload's schema, only the members asked for: DuckDB parses them into typed columns
      // and skips the rest. A line whose payload does not fit (the 2012-2014 Timeline events give
      // payload.issue as an id) is skipped as an error (ignore_errors), as ClickHouse does.
      const text = 'STRUCT(number UBIGINT, title VARCHAR, body VARCHAR)';
      const payload = `STRUCT(issue ${text}, comment STRUCT(body VARCHAR), pull_request ${text})`;
      const sql = `
        WITH reports AS (
          SELECT repo.name AS repo,
                 CASE WHEN type = 'PullRequestEvent' THEN payload.pull_request.number ELSE payload.issue.number END AS number,
                 CASE WHEN type = 'PullRequestEvent' THEN [payload.pull_request.title, payload.pull_request.body]
                      ELSE [payload.issue.title, payload.issue.body, payload.comment.body] END AS texts
          FROM read_ndjson([${paths.map(Literal).join(', ')}],
                           columns = {type: 'VARCHAR', repo: 'STRUCT(name VARCHAR)', payload: ${Literal(payload)}},
                           compression = 'gzip', maximum_object_size = 268435456, ignore_errors = true)
          WHERE type IN ('IssuesEvent', 'IssueCommentEvent', 'PullRequestEvent'))
        SELECT repo, count(DISTINCT number) AS reports
        FROM reports
        WHERE repo <> '' AND number IS NOT NULL AND list_bool_or([coalesce(regexp_matches(t, ${re}), false) for t in texts])
        GROUP BY repo`;
      return (await con.runAndReadAll(sql)).getRows();
    },
    close() { con.closeSync?.(); },
  };
});
