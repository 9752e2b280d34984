// A deployment file is data (issue 27, item 3): a CI job that runs preflight or synth on a pull
// request must not run a program, read a file of the host outside the deployment file's directory
// or carry the host's environment into objects, because of what the file says. --trust-deployment-file
// (a command-line choice, never the file's) lifts each limit. Each case runs the CLI in-process.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../lib/cli/main';
import type { Output } from '../../../lib/cli/output';
import { JOB_CONFIG } from '../../support/fixtures';

function capture(): Output & { err: string[]; out: string[] } {
  const err: string[] = [];
  const out: string[] = [];
  return {
    json: false,
    err,
    out,
    result: (_d, lines) => out.push(...lines),
    line: (t) => out.push(t),
    warn: (t) => err.push(`warning: ${t}`),
    error: (t) => err.push(t),
  };
}

let root: string;
let project: string;
let host: string;
const SECRET = 'ci-token-not-for-the-pull-request';

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'st-untrusted-'));
  project = path.join(root, 'pr');
  host = path.join(root, 'host');
  fs.mkdirSync(project);
  fs.mkdirSync(host);
  fs.writeFileSync(path.join(project, 'job.conf'), JOB_CONFIG);
  fs.writeFileSync(path.join(host, 'id_rsa'), 'PRIVATE KEY OF THE CI HOST');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const deploy = (text: string) => {
  const file = path.join(project, 'deploy.conf');
  fs.writeFileSync(file, `application { name = pr }\nkubernetes { image = "a/b:1", namespace = ns }\n${text}\n`);
  return file;
};

async function cli(argv: string[]): Promise<{ code: number; err: string; out: string }> {
  const o = capture();
  const code = await main(argv, o);
  return { code, err: o.err.join('\n'), out: o.out.join('\n') };
}

const synth = (file: string, ...more: string[]) =>
  cli(['synth', '-a', file, '-c', path.join(project, 'job.conf'), '-o', path.join(root, 'out'), ...more]);

/** A kubeconfig whose exec plugin, if run, leaves a mark on the host. */
function execKubeconfig(): { file: string; mark: string } {
  const mark = path.join(host, 'plugin-ran');
  const plugin = path.join(project, 'plugin.sh');
  fs.writeFileSync(plugin, `#!/bin/sh\ntouch ${mark}\nexit 1\n`, { mode: 0o755 });
  const file = path.join(project, 'kubeconfig');
  fs.writeFileSync(
    file,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: { server: "https://127.0.0.1:1" }\nusers:\n- name: u\n  user:\n    exec: { apiVersion: client.authentication.k8s.io/v1, command: ${plugin}, interactiveMode: Never }\ncontexts:\n- name: c\n  context: { cluster: c, user: u }\ncurrent-context: c\n`,
  );
  return { file, mark };
}

describe('kubernetes.kubeconfig named by the deployment file', () => {
  test('an exec credential plugin is refused before it runs (preflight, status)', async () => {
    const { file, mark } = execKubeconfig();
    const d = deploy(`kubernetes.kubeconfig = "${file}"`);
    for (const argv of [
      ['preflight', '-a', d, '-c', path.join(project, 'job.conf')],
      ['status', '--id', 'pr-0123456789ab', '-a', d],
    ]) {
      const r = await cli(argv);
      expect(r.code).toBe(64);
      expect(r.err).toMatch(/kubernetes\.kubeconfig: got ".*kubeconfig"; it runs an exec credential plugin/);
      expect(r.err).toContain('--trust-deployment-file');
    }
    expect(fs.existsSync(mark)).toBe(false);
  });

  test('a token file outside the deployment file’s directory is not read', async () => {
    const file = path.join(project, 'kubeconfig');
    fs.writeFileSync(
      file,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: { server: "https://127.0.0.1:1" }\nusers:\n- name: u\n  user: { tokenFile: ${path.join(host, 'id_rsa')} }\ncontexts:\n- name: c\n  context: { cluster: c, user: u }\ncurrent-context: c\n`,
    );
    const r = await cli(['status', '--id', 'pr-0123456789ab', '-a', deploy(`kubernetes.kubeconfig = "${file}"`)]);
    expect(r.code).toBe(64);
    expect(r.err).toMatch(/its tokenFile .*id_rsa is outside the deployment file's directory/);
  });

  test('given on the command line (-D) or with --trust-deployment-file, the plugin is the user’s choice', async () => {
    // Left to @kubernetes/client-node, which runs the plugin (test/unit/cli/bundle.test.ts shows it does).
    const { file } = execKubeconfig();
    const viaD = await cli(['status', '--id', 'pr-0123456789ab', '-a', deploy(''), `-Dkubernetes.kubeconfig=${file}`]);
    const trusted = await cli([
      'status',
      '--id',
      'pr-0123456789ab',
      '-a',
      deploy(`kubernetes.kubeconfig = "${file}"`),
      '--trust-deployment-file',
    ]);
    for (const r of [viaD, trusted]) {
      expect(r.code).not.toBe(0); // nothing answers on 127.0.0.1:1
      expect(r.err).not.toMatch(/runs an exec credential plugin/);
    }
  });
});

describe('files the deployment file names', () => {
  test('include file("/abs/…") outside its directory is refused; inside it is read', async () => {
    const outside = await synth(deploy(`include file("${path.join(host, 'id_rsa')}")`));
    expect(outside.code).toBe(64);
    expect(outside.err).toMatch(/id_rsa: is outside the deployment file's directory/);
    expect(outside.err).not.toContain('PRIVATE KEY');
    fs.writeFileSync(path.join(project, 'more.conf'), 'kubernetes.labels.team = data\n');
    expect((await synth(deploy('include file("more.conf")'))).code).toBe(0);
  });

  test('a symbolic link in its directory that points outside is refused', async () => {
    fs.symlinkSync(path.join(host, 'id_rsa'), path.join(project, 'innocent.conf'));
    const r = await synth(deploy('include file("innocent.conf")'));
    expect(r.code).toBe(64);
    expect(r.err).toMatch(/innocent\.conf: is outside the deployment file's directory/);
  });

  test('runtime-files.*.file outside its directory is refused, and its content never lands in a manifest', async () => {
    const out = path.join(root, 'out');
    const r = await synth(deploy(`kubernetes.runtime-files.log4j2.file = "${path.join(host, 'id_rsa')}"`));
    expect(r.code).toBe(64);
    expect(r.err).toMatch(/is outside the deployment file's directory/);
    const written = fs.existsSync(out)
      ? fs.readdirSync(out).map((f) => fs.readFileSync(path.join(out, f), 'utf8'))
      : [];
    expect(written.join('')).not.toContain('PRIVATE KEY');
  });

  test('with --trust-deployment-file they are read', async () => {
    const r = await synth(deploy(`include file("${path.join(host, 'id_rsa')}")`), '--trust-deployment-file');
    // Read (and then found not to be HOCON): the limit is lifted.
    expect(r.err).not.toMatch(/outside the deployment file's directory/);
  });
});

describe("the host's environment", () => {
  /** synth of a deployment file that puts $CI_TOKEN into an annotation, with the token in the environment. */
  const synthWithToken = async (...more: string[]) => {
    process.env.CI_TOKEN = SECRET;
    try {
      return await synth(deploy('kubernetes.annotations.build = ${CI_TOKEN}'), ...more);
    } finally {
      delete process.env.CI_TOKEN;
    }
  };

  test('${CI_TOKEN} in an annotation is refused, named, never shown, and nothing is written', async () => {
    const r = await synthWithToken();
    expect(r.code).toBe(64);
    expect(r.err).toMatch(
      /kubernetes\.annotations\.build: .*the host environment variable CI_TOKEN is substituted here/,
    );
    expect(r.err + r.out).not.toContain(SECRET);
    expect(fs.existsSync(path.join(root, 'out'))).toBe(false);
  });

  test('trusted, it goes in with a warning', async () => {
    const r = await synthWithToken('--trust-deployment-file');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(
      /warning: the host environment variable CI_TOKEN is substituted into kubernetes\.annotations\.build/,
    );
  });
});

test('a kubeconfig that turns off the certificate check is warned about (issue 27, item 18)', async () => {
  const file = path.join(project, 'kubeconfig');
  fs.writeFileSync(
    file,
    'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: { server: "https://127.0.0.1:1", insecure-skip-tls-verify: true }\nusers:\n- name: u\n  user: { token: t }\ncontexts:\n- name: c\n  context: { cluster: c, user: u }\ncurrent-context: c\n',
  );
  const r = await cli(['status', '--id', 'pr-0123456789ab', '-a', deploy(`kubernetes.kubeconfig = "${file}"`)]);
  expect(r.err).toMatch(
    /warning: the kubeconfig \(kubernetes\.kubeconfig\) turns off the check of the API server's certificate/,
  );
});
