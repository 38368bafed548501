// chDB (ClickHouse in the process) over GH Archive hours: distinct flagged reports per repository.
//
//   node chdb.cjs --threads T --files LIST [--regex RE]      (see common.cjs for the output)
//
// A report is (repo.name, number): IssuesEvent and IssueCommentEvent give payload.issue.number
// and their text is the title and body and the comment's body; PullRequestEvent gives
// payload.pull_request.number with the pull request's title and body. A report is flagged when
// one of its texts in one event matches RE (by default the words of words.txt). ClickHouse reads
// the gzip files itself (file() with the JSONEachRow format, payload kept as a string and taken
// apart by JSONExtract, as its shape differs per event type).
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
      const sources = Object.entries(ByFolder(paths)).map(([dir, names]) => {
        const glob = names.length === 1 ? `${dir}/${names[0]}` : `${dir}/{${names.join(',')}}`;
        return `SELECT type, repo, payload FROM file(${Literal(glob)}, 'JSONEachRow',
                  'type String, repo Tuple(name String), payload String')`;
      });
      const re = Literal(regex);
      const sql = `
        SELECT repo, uniqExact(number) AS reports
        FROM (
          SELECT repo.name AS repo,
                 type = 'PullRequestEvent' AS pr,
                 if(pr, JSONExtract(payload, 'pull_request', 'number', 'Nullable(UInt64)'),
                        JSONExtract(payload, 'issue', 'number', 'Nullable(UInt64)')) AS number,
                 if(pr, [JSONExtractString(payload, 'pull_request', 'title'),
                         JSONExtractString(payload, 'pull_request', 'body')],
                        [JSONExtractString(payload, 'issue', 'title'),
                         JSONExtractString(payload, 'issue', 'body'),
                         JSONExtractString(payload, 'comment', 'body')]) AS texts
          FROM (${sources.join(' UNION ALL ')})
          WHERE type IN ('IssuesEvent', 'IssueCommentEvent', 'PullRequestEvent'))
        WHERE number IS NOT NULL AND arrayExists(t -> match(t, ${re}), texts)
        GROUP BY repo
        SETTINGS max_threads = ${Number(threads)}, input_format_skip_unknown_fields = 1,
                 input_format_json_read_objects_as_strings = 1`;
      const result = await chdb.queryAsync(sql, { format: 'TSVRaw' });
      return result.text().split('\n').filter(Boolean).map((l) => l.split('\t'));
    },
  };
});
