import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { main } from '../../../lib/cli/main';
import type { Output } from '../../../lib/cli/output';
import { JOB_CONFIG } from '../../support/fixtures';

function capture(): Output & { out: string[]; err: string[]; data: unknown[] } {
  const out: string[] = [];
  const err: string[] = [];
  const data: unknown[] = [];
  return {
    json: false,
    out,
    err,
    data,
    result: (d, lines) => {
      data.push(d);
      out.push(...lines);
    },
    line: (t) => out.push(t),
    warn: (t) => err.push(`warning: ${t}`),
    error: (t) => err.push(t),
  };
}

const tmp = () => mkdtempSync(join(tmpdir(), 'st-synth-'));

describe('seatunnel-app synth', () => {
  test('without arguments: the bundled example, one YAML file, dependents before the Job', async () => {
    const dir = tmp();
    const o = capture();
    expect(await main(['synth', '-o', dir], o)).toBe(0);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^fake-to-console-[0-9a-f]{12}\.k8s\.yaml$/);
    const docs = parseAllDocuments(readFileSync(join(dir, files[0]), 'utf8')).map((d) => d.toJS());
    expect(docs[docs.length - 1].kind).toBe('Job');
    expect(docs[docs.length - 1].spec.suspend).toBe(false);
    expect(o.out[0]).toMatch(/^Application ID: fake-to-console-[0-9a-f]{12}$/);
    expect(o.out[1]).toMatch(/^Job ID: \d+$/);
  });

  test('--restore-job-id: the Job ID printed is the Zeta job that runs, the restored one', async () => {
    const dir = tmp();
    const o = capture();
    expect(await main(['synth', '-o', dir, '--restore-job-id', '4816816535611402593'], o)).toBe(0);
    expect(o.out[1]).toBe('Job ID: 4816816535611402593');
    expect(o.data[0]).toMatchObject({ jobId: '4816816535611402593' });
  });

  test('-a -c -D: a SeaTunnel deployment file, overrides applied', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'deploy.conf'),
      'kubernetes { image = "apache/seatunnel:2.3.12" }\napplication.name = demo',
    );
    writeFileSync(join(dir, 'job.conf'), JOB_CONFIG);
    const o = capture();
    expect(
      await main(
        [
          'synth',
          '-a',
          join(dir, 'deploy.conf'),
          '-c',
          join(dir, 'job.conf'),
          '-Dkubernetes.namespace=jobs',
          '-o',
          join(dir, 'out'),
        ],
        o,
      ),
    ).toBe(0);
    const [file] = readdirSync(join(dir, 'out'));
    const docs = parseAllDocuments(readFileSync(join(dir, 'out', file), 'utf8')).map((d) => d.toJS());
    expect(docs.every((d) => d.metadata.namespace === 'jobs')).toBe(true);
  });

  test("a deployment file as SeaTunnel's Kubernetes e2e tests and quick start write it, with kubernetes.config-map and -i overrides", async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'job.conf'), JOB_CONFIG);
    const deploy = join(__dirname, 'fixtures', 'seatunnel-kubernetes-e2e.conf');
    const o = capture();
    const argv = [
      'synth',
      '-t=kubernetes',
      '-a',
      deploy,
      '-c',
      join(dir, 'job.conf'),
      '-ikubernetes.namespace=seatunnel-e2e',
      '-i',
      'application.worker-count=2',
    ];
    expect(await main([...argv, '-o', join(dir, 'out')], o)).toBe(0);
    expect(o.err).toEqual([]);
    const [file] = readdirSync(join(dir, 'out'));
    const docs = parseAllDocuments(readFileSync(join(dir, 'out', file), 'utf8')).map((d) => d.toJS());
    expect(docs.every((d) => d.metadata.namespace === 'seatunnel-e2e')).toBe(true);
    // The user's ConfigMap is mounted on the master and in the worker template, never generated.
    const job = docs.find((d) => d.kind === 'Job');
    const template = docs.find((d) => d.kind === 'PodTemplate');
    for (const pod of [job.spec.template.spec, template.template.spec]) {
      expect(pod.volumes).toContainEqual({ name: 'seatunnel-config', configMap: { name: 'seatunnel-config' } });
      expect(pod.containers[0].volumeMounts).toContainEqual({
        name: 'seatunnel-config',
        mountPath: '/opt/seatunnel/config',
        readOnly: true,
      });
    }
    expect(docs.filter((d) => d.kind === 'ConfigMap').map((d) => d.metadata.name)).not.toContain('seatunnel-config');
    const engine = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name.endsWith('-engine'));
    expect(JSON.parse(engine.data['runtime.json']).workerCount).toBe(2);
    expect(JSON.parse(engine.data['user-files.json']).configMap).toBe('seatunnel-config');
    expect(job.spec.template.metadata.labels).toMatchObject({ team: 'data', tier: 'batch' });
  });

  test('owned secrets in the output are warned about, and the file is readable by its owner only (issue 27, item 14)', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'deploy.conf'), 'kubernetes { image = "a/b:1", secret.db.data.password = s3cret }');
    writeFileSync(join(dir, 'job.conf'), JOB_CONFIG);
    const o = capture();
    // An earlier output of the same name, readable by all, is replaced whole.
    const out = join(dir, 'out');
    mkdirSync(out);
    expect(await main(['synth', '-a', join(dir, 'deploy.conf'), '-c', join(dir, 'job.conf'), '-o', out], o)).toBe(0);
    const [file] = readdirSync(out);
    chmodSync(join(out, file), 0o644);
    expect(await main(['synth', '-a', join(dir, 'deploy.conf'), '-c', join(dir, 'job.conf'), '-o', out], o)).toBe(0);
    expect(statSync(join(out, file)).mode & 0o777).toBe(0o600);
    expect(o.err.join('\n')).toMatch(
      /contains the Secret data of .*-db in plain text, so it was written readable by its owner only \(mode 0600\)/,
    );
    expect(o.err.join('\n')).not.toContain('s3cret');
  });

  test.each([
    [
      'a missing deployment file',
      ['-a', '/nonexistent/deploy.conf', '-c', 'x'],
      /-a \/nonexistent\/deploy\.conf: file not found/,
    ],
    ['unparsable HOCON', ['-a', 'BAD', '-c', 'JOB'], /Cannot read the deployment file/],
    [
      'an unknown key',
      ['-a', 'UNKNOWN', '-c', 'JOB'],
      /kubernetes\.imgae: got "x" \(from deployment file\); unknown option; did you mean kubernetes\.image\?/,
    ],
    [
      'an out-of-range value',
      ['-a', 'RANGE', '-c', 'JOB'],
      /application\.worker-count: got -1 \(from deployment file\); must be between 1 and 1000/,
    ],
  ])('%s: clear message, exit 64, no output written', async (_name, args, message) => {
    const dir = tmp();
    writeFileSync(join(dir, 'BAD'), 'kubernetes { image = ');
    writeFileSync(join(dir, 'UNKNOWN'), 'kubernetes { image = "a/b:1", imgae = x }');
    writeFileSync(join(dir, 'RANGE'), 'kubernetes { image = "a/b:1" }\napplication.worker-count = -1');
    writeFileSync(join(dir, 'JOB'), JOB_CONFIG);
    const argv = args.map((a) => (['BAD', 'UNKNOWN', 'RANGE', 'JOB'].includes(a) ? join(dir, a) : a));
    const o = capture();
    expect(await main(['synth', ...argv, '-o', join(dir, 'out')], o)).toBe(64);
    expect(o.err.join('\n')).toMatch(message);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  test('--output json prints one document', async () => {
    const dir = tmp();
    const lines: string[] = [];
    const o = { ...capture(), json: true, result: (d: Record<string, unknown>) => lines.push(JSON.stringify(d)) };
    expect(await main(['synth', '-o', dir, '--output', 'json'], o)).toBe(0);
    expect(JSON.parse(lines[0])).toMatchObject({
      applicationId: expect.stringMatching(/^fake-to-console-/),
      file: expect.stringContaining(dir),
    });
  });
});
