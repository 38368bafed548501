// DuckDB over GH Archive hours: distinct flagged reports per repository, the same question as
// chdb.cjs (see there for what a report and a flag are).
//
//   node duckdb.cjs --threads T --files LIST [--regex RE]      (see common.cjs for the output)
//
// DuckDB reads the gzip files itself (read_ndjson; payload kept as JSON, as its shape differs
// per event type) and matches with regexp_matches (RE2, as ClickHouse's match).
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
      const sql = `
        WITH ev AS (
          SELECT repo.name AS repo, type = 'PullRequestEvent' AS pr, payload
          FROM read_ndjson([${paths.map(Literal).join(', ')}],
                           columns = {type: 'VARCHAR', repo: 'STRUCT(name VARCHAR)', payload: 'JSON'},
                           compression = 'gzip', maximum_object_size = 268435456)
          WHERE type IN ('IssuesEvent', 'IssueCommentEvent', 'PullRequestEvent')),
        reports AS (
          SELECT repo,
                 CASE WHEN pr THEN payload->>'$.pull_request.number' ELSE payload->>'$.issue.number' END::UBIGINT AS number,
                 CASE WHEN pr THEN [payload->>'$.pull_request.title', payload->>'$.pull_request.body']
                      ELSE [payload->>'$.issue.title', payload->>'$.issue.body', payload->>'$.comment.body'] END AS texts
          FROM ev)
        SELECT repo, count(DISTINCT number) AS reports
        FROM reports
        WHERE number IS NOT NULL AND list_bool_or([coalesce(regexp_matches(t, ${re}), false) for t in texts])
        GROUP BY repo`;
      return (await con.runAndReadAll(sql)).getRows();
    },
    close() { con.closeSync?.(); },
  };
});
