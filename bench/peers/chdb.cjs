// chDB (ClickHouse in the process) over GH Archive hours: distinct flagged reports per repository.
//
//   node chdb.cjs --threads T --files LIST [--regex RE]      (see common.cjs for the output)
//
// A report is (repo.name, number): IssuesEvent and IssueCommentEvent give payload.issue.number
// and their text is the title and body and the comment's body; PullRequestEvent gives
// payload.pull_request.number with the pull request's title and body. A report is flagged when
// one of its texts in one event matches RE (by default the words of words.txt). ClickHouse reads
// the gzip files itself (file() with the JSONEachRow format and the schema of the members asked
// for) and matches with match() (RE2, as DuckDB's regexp_matches).
'use strict';
const { Run, ByFolder } = require('./common.cjs');

// Quoted as a ClickHouse string literal (backslash escapes).
const Literal = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

Run('chdb', async () => {
  const chdb = require('chdb');
  const version = chdb.query('SELECT version()', 'TSVRaw').trim();
  return {
    version,
    async query({ paths, threads, regex }) {
      // The payload's schema, only the members asked for: ClickHouse parses them into typed
      // columns and skips the rest. A line whose payload does not fit (the 2012-2014 Timeline
      // events give payload.issue as an id) is skipped as an error, as DuckDB does.
      const text = 'Tuple(number Nullable(UInt64), title Nullable(String), body Nullable(String))';
      const schema = `type String, repo Tuple(name String), payload Tuple(issue ${text}, ` +
                     `comment Tuple(body Nullable(String)), pull_request ${text})`;
      const sources = Object.entries(ByFolder(paths)).map(([dir, names]) => {
        const glob = names.length === 1 ? `${dir}/${names[0]}` : `${dir}/{${names.join(',')}}`;
        return `SELECT type, repo, payload FROM file(${Literal(glob)}, 'JSONEachRow', ${Literal(schema)})`;
      });
      const re = Literal(regex);
      const sql = `
        SELECT repo, uniqExact(number) AS reports
        FROM (
          SELECT repo.name AS repo,
                 type = 'PullRequestEvent' AS pr,
                 if(pr, payload.pull_request.number, payload.issue.number) AS number,
                 if(pr, [payload.pull_request.title, payload.pull_request.body],
                        [payload.issue.title, payload.issue.body, payload.comment.body]) AS texts
          FROM (${sources.join(' UNION ALL ')})
          WHERE type IN ('IssuesEvent', 'IssueCommentEvent', 'PullRequestEvent'))
        WHERE repo != '' AND number IS NOT NULL AND arrayExists(t -> t IS NOT NULL AND match(t, ${re}), texts)
        GROUP BY repo
        SETTINGS max_threads = ${Number(threads)}, input_format_skip_unknown_fields = 1,
                 input_format_allow_errors_ratio = 1`;
      const result = await chdb.queryAsync(sql, { format: 'TSVRaw' });
      return result.text().split('\n').filter(Boolean).map((l) => l.split('\t'));
    },
  };
});
