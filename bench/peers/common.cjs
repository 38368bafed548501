// What chdb.cjs and duckdb.cjs share: their arguments, the regular expression (from words.txt),
// the files grouped by folder, and the one JSON line each prints.
//
//   node PEER.cjs --threads T --files LIST [--regex RE]
//   node PEER.cjs --version        (opens the engine and prints its version: can it run here?)
//
// LIST holds the .json.gz files to read, one path a line. The line printed on stdout:
//   {"peer", "version", "reports", "repos", "start_s", "query_s", "regex"}
// reports = distinct (repository, number) over all repositories, repos = repositories with at
// least one; start_s = from the process's start (Node's time origin) until the engine was ready
// (module loaded, instance open), query_s = the query alone, both measured inside the process.
'use strict';
const fs = require('fs');
const path = require('path');

function WordsRegex() {
  const words = fs.readFileSync(path.join(__dirname, 'words.txt'), 'utf8')
    .split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  return `(?i)\\b(${words.join('|')})\\b`;
}

function ParseArgs(argv) {
  const args = { threads: 2, files: null, regex: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${key} needs a value`);
    if (key === '--threads') args.threads = Number(value);
    else if (key === '--files') args.files = value;
    else if (key === '--regex') args.regex = value;
    else throw new Error(`unknown argument ${key} (valid: --threads --files --regex)`);
  }
  if (!args.files) throw new Error('--files LIST is required');
  if (!(args.threads >= 1)) throw new Error('--threads must be a positive number');
  args.regex = args.regex || WordsRegex();
  args.paths = fs.readFileSync(args.files, 'utf8').split('\n').filter(Boolean).map((p) => path.resolve(p));
  if (args.paths.length === 0) throw new Error(`${args.files} lists no file`);
  for (const p of args.paths) {
    if (/[{}',\\*?]/.test(p)) throw new Error(`${p}: a path with { } ' , \\ * ? is not supported`);
  }
  return args;
}

// ByFolder: { folder: [file names] }, so that a peer can read a folder's files with one pattern.
function ByFolder(paths) {
  const groups = {};
  for (const p of paths) (groups[path.dirname(p)] ||= []).push(path.basename(p));
  return groups;
}

// Run: parse the arguments, time open() and query(), print the JSON line; exit 1 on error.
function Run(peer, open) {
  (async () => {
    if (process.argv[2] === '--version') {
      const engine = await open({ threads: 1 });
      process.stdout.write(`${peer} ${engine.version}\n`);
      if (engine.close) await engine.close();
      return;
    }
    const args = ParseArgs(process.argv.slice(2));
    const engine = await open(args);
    const ready = performance.now();
    const rows = await engine.query(args);  // [[repo, reports], ...]
    const done = performance.now();
    let reports = 0;
    for (const [, n] of rows) reports += Number(n);
    process.stdout.write(JSON.stringify({
      peer, version: engine.version, reports, repos: rows.length,
      start_s: ready / 1000, query_s: (done - ready) / 1000, regex: args.regex,
    }) + '\n');
    if (engine.close) await engine.close();
  })().catch((e) => {
    process.stderr.write(`${peer}: ${e && e.message ? e.message : e}\n`);
    process.exit(1);
  });
}

module.exports = { ParseArgs, ByFolder, Run, WordsRegex };
