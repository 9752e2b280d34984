// Issue 11 (items 8, 9, 17), the CLI's side: nothing it prints holds a secret or a control
// character, risky-but-valid input is named in a warning, and file errors are clear. Each test
// failed before.

import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../lib/cli/main';
import { consoleOutput } from '../../../lib/cli/output';
import { printable } from '../../../lib/cli/printable';
import { JOB_CONFIG } from '../../support/fixtures';

const SECRET = 'hunter2-Sup3rSecret';
const tmp = () => mkdtempSync(join(tmpdir(), 'st-hostile-'));

/** A consoleOutput over in-memory streams: exactly the bytes a terminal or a script would get. */
function terminal(json = false) {
  const text = { out: '', err: '' };
  const stream = (k: 'out' | 'err') =>
    ({
      write: (s: string) => {
        text[k] += s;
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  return { text, output: consoleOutput(json, stream('out'), stream('err')) };
}

/** A deployment file and the job file in a fresh directory. */
function files(deployment: string): { dir: string; deploy: string; job: string } {
  const dir = tmp();
  writeFileSync(join(dir, 'deploy.conf'), deployment);
  writeFileSync(join(dir, 'job.conf'), JOB_CONFIG);
  return { dir, deploy: join(dir, 'deploy.conf'), job: join(dir, 'job.conf') };
}

describe('no secret in what the CLI prints', () => {
  test('a validation error about Secret data, as text and as --output json', async () => {
    const f = files(`kubernetes { image = "a/b:1", secret.db { ref = existing, data.password = "${SECRET}" } }`);
    for (const json of [false, true]) {
      const t = terminal(json);
      expect(
        await main(
          ['synth', '-a', f.deploy, '-c', f.job, '-o', join(f.dir, 'out'), ...(json ? ['--output', 'json'] : [])],
          t.output,
        ),
      ).toBe(64);
      expect(t.text.out + t.text.err).not.toContain('hunter2');
      expect(t.text.err).toMatch(
        /kubernetes\.secret\.db: got <redacted, \d+ bytes> \(from deployment file\); set either ref/,
      );
      if (json) expect(JSON.parse(t.text.out).issues[0].value).toMatch(/^<redacted, \d+ bytes>$/);
    }
  });

  test('a malformed kubeconfig is reported without the line holding its token', async () => {
    const dir = tmp();
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- cluster:',
        '    server: https://127.0.0.1:6443',
        '  name: c',
        'users:',
        '- name: u',
        '  user:',
        `    token: ${SECRET}`,
        '      bad: indent',
        'contexts: []',
        'current-context: x',
        '',
      ].join('\n'),
    );
    const t = terminal();
    expect(
      await main(['status', '--id', 'orders-0123456789ab', `-Dkubernetes.kubeconfig=${kubeconfig}`], t.output),
    ).toBe(64);
    expect(t.text.err).toContain(`kubernetes.kubeconfig: got "${kubeconfig}"`);
    expect(t.text.err).toMatch(/at line 10, column \d+/);
    expect(t.text.err).not.toContain('hunter2');
  });

  test('Secret data given with -i (or -D) is refused before anything is written, without its value', async () => {
    const f = files('kubernetes.image = "a/b:1"');
    for (const flag of ['-i', '-D']) {
      const t = terminal();
      expect(
        await main(
          [
            'synth',
            '-a',
            f.deploy,
            '-c',
            f.job,
            '-o',
            join(f.dir, 'out'),
            `${flag}kubernetes.secret.db.data.password=${SECRET}`,
          ],
          t.output,
        ),
      ).toBe(64);
      expect(t.text.err).toMatch(
        /kubernetes\.secret\.db\.data\.password: \(from command-line override\); Secret data must not come from a command-line override/,
      );
      expect(t.text.err).not.toContain('hunter2');
      expect(() => readdirSync(join(f.dir, 'out'))).toThrow();
    }
  });
});

describe('warnings', () => {
  const NAME = 'ST_HOSTILE_TEST_DB_PASSWORD';
  afterEach(() => {
    delete process.env[NAME];
  });

  test('a host variable substituted into an env literal and a label is named, its value never printed', async () => {
    process.env[NAME] = SECRET;
    const f = files(`kubernetes { image = "a/b:1", env.DB_PASS = \${${NAME}}, labels.owner = \${${NAME}}x }`);
    const t = terminal();
    const argv = ['synth', '-a', f.deploy, '-c', f.job, '-o', join(f.dir, 'out'), '--trust-deployment-file'];
    expect(await main(argv, t.output)).toBe(0);
    expect(t.text.err).toContain(
      `warning: the host environment variable ${NAME} is substituted into kubernetes.env.DB_PASS, kubernetes.labels.owner, which are stored in plain text`,
    );
    expect(t.text.err).not.toContain('hunter2');
  });
});

describe('-o names an existing file', () => {
  test('a clear usage error (exit 64), not a raw EEXIST', async () => {
    const f = files('kubernetes.image = "a/b:1"');
    const file = join(f.dir, 'not-a-dir');
    writeFileSync(file, 'x');
    const t = terminal();
    expect(await main(['synth', '-a', f.deploy, '-c', f.job, '-o', file], t.output)).toBe(64);
    expect(t.text.err).toBe(
      `error: -o ${file}: exists and is not a directory (or a parent is a file); -o takes a directory to write into\n`,
    );
    expect(await main(['synth', '-a', f.deploy, '-c', f.job, '-o', join(file, 'sub')], terminal().output)).toBe(64);
  });
});

describe('control characters never reach the terminal raw', () => {
  const hostile = 'ok\u001b[2J\u001b]0;pwned\u0007\rSTATUS: SUCCEEDED\nfake line\u009b31m\u007f';

  test('printable escapes C0, DEL and C1, and keeps tabs', () => {
    expect(printable(hostile)).toBe(
      'ok\\u001b[2J\\u001b]0;pwned\\u0007\\rSTATUS: SUCCEEDED\\nfake line\\u009b31m\\u007f',
    );
    expect(printable('a\tb')).toBe('a\tb');
    expect(printable('line 1\nline 2\u001b', true)).toBe('line 1\nline 2\\u001b');
  });

  test('every printer of the console output escapes them', () => {
    const t = terminal();
    t.output.result({}, [`Message: ${hostile}`]);
    t.output.line(hostile);
    t.output.warn(hostile);
    t.output.error(hostile);
    t.output.progress?.(hostile);
    // eslint-disable-next-line no-control-regex
    expect(t.text.out + t.text.err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(t.text.out.split('\n')).toHaveLength(3);
  });

  test('--output json escapes DEL and C1 too, and stays valid JSON', () => {
    const t = terminal(true);
    t.output.result({ message: hostile }, []);
    expect(t.text.out).not.toMatch(/[\u007f-\u009f]/);
    expect(JSON.parse(t.text.out).message).toBe(hostile);
  });
});
