// Reads `osvlab report DIR --json` on stdin and prints it with the timings
// left out (every "latency" field) and the attempts in id order (a merged run
// lists them in the order its shards finished them), so that two reports of
// the same work compare equal as text. Used by deploy/slurm/test-local.sh.
let text = '';
process.stdin.setEncoding('utf8').on('data', (s) => (text += s)).on('end', () => {
  const strip = (v) => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'latency').map(([k, x]) => [k, strip(x)]));
  };
  const report = strip(JSON.parse(text));
  if (Array.isArray(report.attempts)) report.attempts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  process.stdout.write(`${JSON.stringify(report, null, 1)}\n`);
});
