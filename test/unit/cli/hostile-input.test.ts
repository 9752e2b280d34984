// Input files the CLI must refuse as configuration errors (exit 64, with the place) instead of
// hanging, exhausting memory or printing a raw errno (issue 11, item 15).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../lib/cli/main';
import type { Output } from '../../../lib/cli/output';
import { JOB_CONFIG } from '../../support/fixtures';

function capture(): Output & { err: string[] } {
  const err: string[] = [];
  return {
    json: false,
    err,
    result: () => undefined,
    line: () => undefined,
    warn: (t) => err.push(`warning: ${t}`),
    error: (t) => err.push(t),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'st-hostile-'));
mkdirSync(join(dir, 'a-directory'));
writeFileSync(join(dir, 'job.conf'), JOB_CONFIG);
const deploy = (name: string, text: string) => {
  writeFileSync(join(dir, name), `kubernetes { image = "a/b:1" }\n${text}\n`);
  return join(dir, name);
};

test.each([
  ['-c /dev/zero', ['-c', '/dev/zero'], /^error: -c \/dev\/zero: is a device, expected a regular file$/],
  [
    '-a a directory',
    ['-a', join(dir, 'a-directory'), '-c', join(dir, 'job.conf')],
    /^error: -a .*a-directory: is a directory, expected a regular file$/,
  ],
  [
    // Trusted, or it would be refused for lying outside the deployment file's directory (issue 27, item 3).
    'an include of /dev/zero',
    ['-a', deploy('zero.conf', 'include "/dev/zero"'), '--trust-deployment-file'],
    /zero\.conf:2:1: cannot include "\/dev\/zero": \/dev\/zero: is a device, expected a regular file/,
  ],
  [
    'an include of a directory',
    ['-a', deploy('dir.conf', 'include "a-directory"')],
    /dir\.conf:2:1: cannot include "a-directory": .*is a directory, expected a regular file/,
  ],
  [
    'nesting 2000 levels',
    ['-a', deploy('deep.conf', `x = ${'{ y = '.repeat(2000)}1${' }'.repeat(2000)}`)],
    /deep\.conf:2:\d+: nested deeper than 100 levels/,
  ],
  [
    'an expanding array',
    [
      '-a',
      deploy(
        'wide.conf',
        `a0 = [1,2,3,4,5,6,7,8,9,10]\n${Array.from({ length: 27 }, (_, i) => `a${i + 1} = \${a${i}} \${a${i}}`).join('\n')}`,
      ),
    ],
    /wide\.conf:\d+:\d+: (resolving takes more than|the resolved configuration would be larger)/,
  ],
  ['a job config nested 2000 levels', ['-c', 'DEEP_JOB'], /job config:\d+:\d+: nested deeper than 100 levels/],
])('%s: a configuration error with its place, exit 64', async (_name, args, message) => {
  writeFileSync(join(dir, 'DEEP_JOB'), `${JOB_CONFIG}\nx = ${'['.repeat(3000)}${']'.repeat(3000)}\n`);
  const argv = ['synth', ...args.map((a) => (a === 'DEEP_JOB' ? join(dir, a) : a))];
  if (!argv.includes('-c')) argv.push('-c', join(dir, 'job.conf'));
  if (!argv.includes('-a')) argv.push('-a', deploy('ok.conf', ''));
  const o = capture();
  expect(await main([...argv, '-o', join(dir, 'out')], o)).toBe(64);
  expect(o.err.join('\n')).toMatch(message);
});
