// The CLI as bin/seatunnel-app.js runs it: one bundled file (tools/build-cli.mjs) that still loads
// each command only when it runs. Built here into a directory of its own inside build/ (so the
// external packages resolve from the repository's node_modules) and run as a process with a
// hook that reports every file it loaded.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JOB_CONFIG } from '../../support/fixtures';

jest.setTimeout(60_000);

const REPO = path.resolve(__dirname, '..', '..', '..');
let dir: string;
let bundle: string;

/** Loads the bundle, runs `argv`, and prints the exit code and every file in require.cache. */
const RUNNER = `
const { main } = require(process.env.BUNDLE);
main(JSON.parse(process.env.ARGV)).then((code) => {
  process.stdout.write('\\n' + JSON.stringify({ code, loaded: Object.keys(require.cache) }) + '\\n');
});
`;

function runBundle(argv: string[]): { code: number; loaded: string[]; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['-e', RUNNER], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: dir, BUNDLE: bundle, ARGV: JSON.stringify(argv) },
  });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (!last.startsWith('{')) throw new Error(`no report from the bundle (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return { ...(JSON.parse(last) as { code: number; loaded: string[] }), stdout: r.stdout, stderr: r.stderr };
}

const packages = (loaded: string[]) =>
  [...new Set(loaded.flatMap((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? []))].sort();

beforeAll(() => {
  fs.mkdirSync(path.join(REPO, 'build'), { recursive: true });
  dir = fs.mkdtempSync(path.join(REPO, 'build', 'test-cli-bundle-'));
  bundle = path.join(dir, 'seatunnel-app.js');
  const r = spawnSync(process.execPath, [path.join(REPO, 'tools', 'build-cli.mjs'), bundle], {
    cwd: REPO,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`tools/build-cli.mjs failed:\n${r.stdout}\n${r.stderr}`);
  fs.writeFileSync(path.join(dir, 'job.conf'), JOB_CONFIG);
  // A kubeconfig pointing at a closed loopback port: status fails fast after loading all it needs.
  fs.writeFileSync(
    path.join(dir, 'kubeconfig'),
    'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: { server: "https://127.0.0.1:1" }\nusers:\n- name: u\n  user: { token: t }\ncontexts:\n- name: c\n  context: { cluster: c, user: u }\ncurrent-context: c\n',
  );
  fs.writeFileSync(
    path.join(dir, 'deploy.conf'),
    `application { name = bundled }\nkubernetes { namespace = ns, image = "apache/seatunnel:2.3.12", kubeconfig = "${path.join(dir, 'kubeconfig')}" }\n`,
  );
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('status loads the one bundled file and no package: not cdk8s, not yaml or the Kubernetes client as separate files', () => {
  const r = runBundle(['status', '-a', path.join(dir, 'deploy.conf'), '--id', 'bundled-0123456789ab']);
  // It got as far as dialling the API server (the closed port), so every module it needs was loaded.
  expect(r.stderr).toMatch(/127\.0\.0\.1:1|ECONNREFUSED|connect/);
  expect(r.code).not.toBe(0);
  expect(packages(r.loaded)).toEqual([]);
  expect(r.loaded.filter((f) => f.startsWith(REPO))).toEqual([bundle]);
});

test('synth writes the manifest from the one bundled file: no cdk8s, no constructs, no package at all', () => {
  const out = path.join(dir, 'out');
  const r = runBundle(['synth', '-a', path.join(dir, 'deploy.conf'), '-c', path.join(dir, 'job.conf'), '-o', out]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/Application ID: bundled-[0-9a-f]{12}/);
  expect(packages(r.loaded)).toEqual([]);
  expect(r.loaded.filter((f) => f.startsWith(REPO))).toEqual([bundle]);
  expect(fs.readdirSync(out)).toHaveLength(1);
});

test('an error inside the bundle keeps a stack trace that names the source file it came from', () => {
  const text = fs.readFileSync(bundle, 'utf8');
  // esbuild marks where each source file starts; a stack line's number falls under one of them.
  expect(text).toMatch(/^\/\/ lib\/cli\/commands\/status\.ts$/m);
  expect(text).toMatch(/^\/\/ lib\/kube\/transport\.ts$/m);
});

/** Runs `argv` on the bundle loaded through bin/code-cache.js (the CLI on Node 20), as a process. */
const CACHED_RUNNER = `
const { loadWithCodeCache } = require(process.env.CODE_CACHE);
const loaded = loadWithCodeCache(process.env.BUNDLE, 'status');
loaded.exports.main(JSON.parse(process.env.ARGV)).then((code) => {
  loaded.done();
  process.stdout.write('\\n' + JSON.stringify({ code, cache: loaded.cache }) + '\\n');
});
`;

test('from a V8 code cache the bundle still loads the ESM-only Kubernetes client (import() lent by the loader)', () => {
  // A kubeconfig with an exec plugin: the CLI's own reader leaves it to @kubernetes/client-node.
  const kubeconfig = path.join(dir, 'exec-kubeconfig');
  fs.writeFileSync(
    kubeconfig,
    'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: { server: "https://127.0.0.1:1" }\nusers:\n- name: u\n  user:\n    exec: { apiVersion: client.authentication.k8s.io/v1, command: /bin/false, interactiveMode: Never }\ncontexts:\n- name: c\n  context: { cluster: c, user: u }\ncurrent-context: c\n',
  );
  const deploy = path.join(dir, 'exec-deploy.conf');
  fs.writeFileSync(
    deploy,
    `application { name = bundled }\nkubernetes { namespace = ns, image = "apache/seatunnel:2.3.12", kubeconfig = "${kubeconfig}" }\n`,
  );
  const run = () => {
    const r = spawnSync(process.execPath, ['-e', CACHED_RUNNER], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        XDG_CACHE_HOME: path.join(dir, 'cache'),
        CODE_CACHE: path.join(REPO, 'bin', 'code-cache.js'),
        BUNDLE: bundle,
        // Trusted: a deployment file may name a kubeconfig with a plugin only then (issue 27, item 3).
        ARGV: JSON.stringify(['status', '-a', deploy, '--id', 'bundled-0123456789ab', '--trust-deployment-file']),
      },
    });
    const report = JSON.parse(r.stdout.trim().split('\n').pop()!) as { code: number; cache: string };
    return { ...report, stderr: r.stderr };
  };
  const first = run();
  const second = run();
  expect([first.cache, second.cache]).toEqual(['none', 'accepted']);
  for (const r of [first, second]) {
    // The exec plugin ran (and failed) inside the client: it was loaded.
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/EAUTH: cannot authenticate/);
    expect(r.stderr).not.toMatch(/import|ERR_VM/);
  }
});
