// `seatunnel-app status … | head` (issue 27, item 18): when the reader goes away, the CLI neither
// prints a stack trace nor stops halfway; what is left to print is dropped.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');

test('output to a closed pipe: no EPIPE stack trace, the command runs to its end', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-epipe-'));
  try {
    const pkg = path.join(dir, 'pkg');
    fs.mkdirSync(path.join(pkg, 'bin'), { recursive: true });
    fs.mkdirSync(path.join(pkg, 'build', 'cli'), { recursive: true });
    for (const f of ['seatunnel-app.js', 'code-cache.js'])
      fs.copyFileSync(path.join(REPO, 'bin', f), path.join(pkg, 'bin', f));
    const done = path.join(dir, 'finished');
    // A stand-in for the bundle: a command that prints much more than a pipe holds, then finishes.
    fs.writeFileSync(
      path.join(pkg, 'build', 'cli', 'seatunnel-app.js'),
      `exports.main = async () => {
        for (let i = 0; i < 20000; i++) process.stdout.write('Status: RUNNING ' + i + '\\n');
        await new Promise((r) => setTimeout(r, 50));
        for (let i = 0; i < 100; i++) process.stdout.write('more\\n');
        require('node:fs').writeFileSync(${JSON.stringify(done)}, 'yes');
        return 0;
      };\n`,
    );
    const err = path.join(dir, 'stderr');
    const r = spawnSync(
      'bash',
      ['-c', `set -o pipefail; "$NODE" "$BIN" status --id x 2>"$ERR" | head -c 20 >/dev/null; echo "$?"`],
      {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          XDG_CACHE_HOME: path.join(dir, 'cache'),
          NODE: process.execPath,
          BIN: path.join(pkg, 'bin', 'seatunnel-app.js'),
          ERR: err,
        },
      },
    );
    expect(fs.readFileSync(err, 'utf8')).toBe('');
    expect(fs.existsSync(done)).toBe(true);
    expect(r.stdout.trim()).toBe('0');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
