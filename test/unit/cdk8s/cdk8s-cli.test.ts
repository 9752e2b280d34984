// `cdk8s synth` through cdk8s.yaml: the cdk8s CLI runs apps/cdk8s/main.ts and writes one YAML file
// per application (the bundled example and the team template's three), with no network.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

jest.setTimeout(120_000);

test('npx cdk8s synth writes one file per application, dependents before the Job', () => {
  const out = mkdtempSync(join(tmpdir(), 'cdk8s-synth-'));
  const root = join(__dirname, '..', '..', '..');
  execFileSync(join(root, 'node_modules', '.bin', 'cdk8s'), ['synth', '--output', out], {
    cwd: root,
    stdio: 'pipe',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const files = readdirSync(out).sort();
  expect(files).toHaveLength(4);
  for (const f of files) {
    const docs = parseAllDocuments(readFileSync(join(out, f), 'utf8')).map((d) => d.toJS() as { kind: string });
    expect(docs.filter((d) => d.kind === 'Job')).toHaveLength(1);
    expect(docs[docs.length - 1].kind).toBe('Job');
  }
  expect(files.some((f) => f.startsWith('fake-to-console-'))).toBe(true);
});
