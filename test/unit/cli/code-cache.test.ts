// bin/code-cache.js: the CLI bundle loaded through a V8 code cache on Node 20 (bin/seatunnel-app.js
// uses it where module.enableCompileCache does not exist). Each case runs in a process of its own,
// as the CLI does, on a small CommonJS "bundle" that requires a file next to it and imports a module
// through the loader's import() (lib/kube/client-node.ts HOST_IMPORT), the two ways the real bundle
// loads code. The real bundle through the cache: test/unit/cli/bundle.test.ts.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodeModule from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

jest.setTimeout(60_000);

const REPO = path.resolve(__dirname, '..', '..', '..');
const CODE_CACHE = path.join(REPO, 'bin', 'code-cache.js');

const BUNDLE = `'use strict';
const helper = require('./helper.js');
exports.main = async (argv) => {
  const { basename } = await globalThis[Symbol.for('seatunnel-app.import')]('node:path');
  return { answer: helper.twice(21), base: basename('/a/b.txt'), argv };
};
`;

/** Loads the bundle through the cache for `command`, runs main, calls done, and reports. */
const RUNNER = `
const { loadWithCodeCache } = require(process.env.CODE_CACHE);
const loaded = loadWithCodeCache(process.env.BUNDLE, process.env.COMMAND);
loaded.exports.main(['x']).then((out) => {
  loaded.done();
  process.stdout.write(JSON.stringify({ cache: loaded.cache, out }) + '\\n');
});
`;

let dir: string;
let bundle: string;
let cacheHome: string;

function load(command: string, env: Record<string, string> = {}): { cache: string; out: unknown } {
  const r = spawnSync(process.execPath, ['-e', RUNNER], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      XDG_CACHE_HOME: cacheHome,
      CODE_CACHE,
      BUNDLE: bundle,
      COMMAND: command,
      ...env,
    },
  });
  if (r.status !== 0) throw new Error(`runner exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { cache: string; out: unknown };
}

const cacheDir = () => path.join(cacheHome, 'seatunnel-app', 'cli-code-cache');
const files = () => (fs.existsSync(cacheDir()) ? fs.readdirSync(cacheDir()).sort() : []);
const EXPECTED = { answer: 42, base: 'b.txt', argv: ['x'] };

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-code-cache-'));
  cacheHome = path.join(dir, 'cache');
  bundle = path.join(dir, 'bundle.js');
  fs.writeFileSync(bundle, BUNDLE);
  fs.writeFileSync(path.join(dir, 'helper.js'), 'exports.twice = (n) => n * 2;\n');
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the first run writes the command’s cache, readable by the user only; the second uses it and writes nothing', () => {
  expect(load('status')).toEqual({ cache: 'none', out: EXPECTED });
  const [name] = files();
  expect(name).toMatch(/^status-[0-9a-f]{8}-[0-9a-f]{24}\.v8$/);
  const file = path.join(cacheDir(), name);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.statSync(cacheDir()).mode & 0o777).toBe(0o700);
  const before = fs.statSync(file);

  expect(load('status')).toEqual({ cache: 'accepted', out: EXPECTED });
  const after = fs.statSync(file);
  expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  expect(files()).toEqual([name]);
});

test('each command has its own cache; an odd command name is filed under "other"', () => {
  load('status');
  load('submit');
  load('../../etc/passwd');
  expect(files().map((f) => f.replace(/-[0-9a-f]{8}-[0-9a-f]{24}\.v8$/, ''))).toEqual(['other', 'status', 'submit']);
});

test('a damaged cache is rejected by V8, the command still runs, and the cache is written again', () => {
  load('submit');
  const [name] = files();
  fs.writeFileSync(path.join(cacheDir(), name), Buffer.alloc(4096, 7));
  expect(load('submit')).toEqual({ cache: 'rejected', out: EXPECTED });
  expect(load('submit')).toEqual({ cache: 'accepted', out: EXPECTED });
});

test('a rebuilt bundle of the same length never meets the old cache, and the old one is removed', () => {
  load('status');
  const [old] = files();
  // Same length, other code: V8 alone (it checks the length) would take the old bytecode.
  fs.writeFileSync(bundle, BUNDLE.replace('twice(21)', 'twice(20)'));
  expect(load('status')).toEqual({ cache: 'none', out: { ...EXPECTED, answer: 40 } });
  const now = files();
  expect(now).toHaveLength(1);
  expect(now[0]).not.toBe(old);
});

test('two installations used in turn keep a cache each: neither evicts the other', () => {
  const other = path.join(dir, 'other-install');
  fs.mkdirSync(other);
  fs.writeFileSync(path.join(other, 'bundle.js'), BUNDLE.replace('twice(21)', 'twice(22)'));
  fs.copyFileSync(path.join(dir, 'helper.js'), path.join(other, 'helper.js'));
  const first = bundle;
  const runOther = () => {
    bundle = path.join(other, 'bundle.js');
    try {
      return load('status');
    } finally {
      bundle = first;
    }
  };
  expect(load('status').cache).toBe('none');
  expect(runOther()).toEqual({ cache: 'none', out: { ...EXPECTED, answer: 44 } });
  expect(load('status')).toEqual({ cache: 'accepted', out: EXPECTED });
  expect(runOther()).toEqual({ cache: 'accepted', out: { ...EXPECTED, answer: 44 } });
  expect(files()).toHaveLength(2);
});

test('NODE_DISABLE_COMPILE_CACHE=1 turns it off: nothing read, nothing written', () => {
  expect(load('status', { NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual({ cache: 'off', out: EXPECTED });
  expect(files()).toEqual([]);
});

test('a cache directory that cannot be written costs nothing but the cache', () => {
  // XDG_CACHE_HOME is a file: mkdir under it fails.
  fs.writeFileSync(cacheHome, 'not a directory');
  expect(load('status')).toEqual({ cache: 'off', out: EXPECTED });
  expect(load('status')).toEqual({ cache: 'off', out: EXPECTED });
});

// Whoever can write the cache decides what code runs as the next user of the CLI (issue 27, item 2).
describe('a cache directory someone else could write is never used', () => {
  test('XDG_CACHE_HOME pointing at a directory anyone may write, without the sticky bit', () => {
    fs.mkdirSync(cacheHome, { mode: 0o777 });
    fs.chmodSync(cacheHome, 0o777);
    expect(load('status')).toEqual({ cache: 'off', out: EXPECTED });
    expect(load('status')).toEqual({ cache: 'off', out: EXPECTED });
    expect(fs.readdirSync(cacheHome)).toEqual([]);
  });

  test('a shared base with the sticky bit (as /tmp) is fine while the directory is the user’s own', () => {
    fs.mkdirSync(cacheHome);
    fs.chmodSync(cacheHome, 0o1777);
    expect(load('status').cache).toBe('none');
    expect(load('status').cache).toBe('accepted');
  });

  test("the user's own directories readable by others (mkdir -p's 0755, as build scripts make ~/.cache/seatunnel-app) keep the cache", () => {
    fs.mkdirSync(path.join(cacheHome, 'seatunnel-app'), { recursive: true, mode: 0o755 });
    fs.chmodSync(cacheHome, 0o755);
    fs.chmodSync(path.join(cacheHome, 'seatunnel-app'), 0o755);
    expect(load('status').cache).toBe('none');
    expect(load('status').cache).toBe('accepted');
    // Writable by the group: someone else could replace the bytecode, so no cache.
    fs.chmodSync(path.join(cacheHome, 'seatunnel-app'), 0o775);
    expect(load('status')).toEqual({ cache: 'off', out: EXPECTED });
  });

  test('a cache directory made by someone else there, open to others, is not read', () => {
    fs.mkdirSync(cacheHome);
    fs.chmodSync(cacheHome, 0o1777);
    load('status');
    const [name] = files();
    // What another user could have left: the directory open to all, the bytecode theirs.
    fs.chmodSync(path.join(cacheHome, 'seatunnel-app'), 0o777);
    fs.writeFileSync(path.join(cacheDir(), name), Buffer.alloc(4096, 7));
    expect(load('status')).toEqual({ cache: 'off', out: EXPECTED });
  });

  test('a symbolic link in place of the directory is not followed', () => {
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(path.join(elsewhere, 'cli-code-cache'), { recursive: true, mode: 0o700 });
    fs.chmodSync(elsewhere, 0o700);
    fs.mkdirSync(cacheHome, { mode: 0o700 });
    fs.symlinkSync(elsewhere, path.join(cacheHome, 'seatunnel-app'));
    expect(load('status')).toEqual({ cache: 'off', out: EXPECTED });
    expect(fs.readdirSync(path.join(elsewhere, 'cli-code-cache'))).toEqual([]);
  });

  test("Node 22.1+'s own cache goes to the same checked directory, never to the temporary directory", () => {
    const pkg = path.join(dir, 'pkg');
    fs.mkdirSync(path.join(pkg, 'bin'), { recursive: true });
    for (const f of ['seatunnel-app.js', 'code-cache.js'])
      fs.copyFileSync(path.join(REPO, 'bin', f), path.join(pkg, 'bin', f));
    fs.mkdirSync(path.join(pkg, 'build', 'cli'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'build', 'cli', 'seatunnel-app.js'), 'exports.main = async () => 0;\n');
    // Node 22.1's module.enableCompileCache, recorded (this test runs on any Node).
    const record = path.join(dir, 'calls.json');
    const preload = path.join(dir, 'preload.js');
    fs.writeFileSync(
      preload,
      `require('node:module').enableCompileCache = (...args) => require('node:fs').appendFileSync(${JSON.stringify(record)}, JSON.stringify(args) + '\\n');\n`,
    );
    const run = (cache: string) =>
      spawnSync(process.execPath, ['--require', preload, path.join(pkg, 'bin', 'seatunnel-app.js'), 'status'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CACHE_HOME: cache },
      });
    expect(run(cacheHome).status).toBe(0);
    const shared = path.join(dir, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o777);
    expect(run(shared).status).toBe(0);
    const calls = fs
      .readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as string[]);
    expect(calls).toEqual([[path.join(cacheHome, 'seatunnel-app', 'node-compile-cache')]]);
    expect(fs.statSync(calls[0][0]).mode & 0o777).toBe(0o700);
  });
});

test('bin/seatunnel-app.js uses it on Node 20, runs the command, and says so when the bundle is not built', () => {
  // The bin and a stand-in bundle, laid out as in the package (bin/, build/cli/).
  const pkg = path.join(dir, 'pkg');
  fs.mkdirSync(path.join(pkg, 'bin'), { recursive: true });
  for (const f of ['seatunnel-app.js', 'code-cache.js'])
    fs.copyFileSync(path.join(REPO, 'bin', f), path.join(pkg, 'bin', f));
  const bin = path.join(pkg, 'bin', 'seatunnel-app.js');
  const run = () =>
    spawnSync(process.execPath, [bin, 'status', '--id', 'x'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CACHE_HOME: cacheHome },
    });

  const missing = run();
  expect(missing.status).toBe(70);
  expect(missing.stderr).toMatch(/not built yet: run `npm ci`/);

  fs.mkdirSync(path.join(pkg, 'build', 'cli'), { recursive: true });
  fs.writeFileSync(
    path.join(pkg, 'build', 'cli', 'seatunnel-app.js'),
    "exports.main = async (argv) => { process.stdout.write('ran ' + argv.join(' ') + '\\n'); return 3; };\n",
  );
  for (let i = 0; i < 2; i++) {
    const r = run();
    expect(r.stdout).toBe('ran status --id x\n');
    expect(r.status).toBe(3);
  }
  // Node 22.1+ keeps its own cache instead (module.enableCompileCache), in another place.
  const ownCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  expect(files().map((f) => f.replace(/-[0-9a-f]{8}-[0-9a-f]{24}\.v8$/, ''))).toEqual(ownCache ? [] : ['status']);
});
