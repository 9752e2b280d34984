// tools/test.sh, the project's test command: a run passes only when every requested tier ran and
// passed. The script runs from a scratch copy of the repository layout whose prerequisite script
// reports BLOCKED, so no tier's real prerequisites or tests are involved.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'tools', 'test.sh');

function scratchRepo(prereqExit: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-test-sh-'));
  fs.mkdirSync(path.join(dir, 'tools', 'testbin'), { recursive: true });
  fs.copyFileSync(SCRIPT, path.join(dir, 'tools', 'test.sh'));
  fs.writeFileSync(
    path.join(dir, 'tools', 'testbin', 'build.sh'),
    `echo "kube-apiserver cannot be built here: no Go toolchain" >&2\nexit ${prereqExit}\n`,
  );
  return dir;
}

function run(dir: string, tiers: string) {
  const r = spawnSync('bash', [path.join(dir, 'tools', 'test.sh')], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', TIERS: tiers },
  });
  fs.rmSync(dir, { recursive: true, force: true });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('tools/test.sh', () => {
  it('fails the run when a requested tier is BLOCKED by its prerequisite, and says why', () => {
    const { status, output } = run(scratchRepo(3), 'cluster');
    expect(status).not.toBe(0);
    expect(output).toContain('no Go toolchain');
    expect(output).toMatch(/cluster\s+BLOCKED \(prerequisite: bash tools\/testbin\/build\.sh/);
    expect(output).toMatch(/tier cluster was requested and did not pass: BLOCKED/);
  });

  it('fails the run when a prerequisite fails', () => {
    const { status, output } = run(scratchRepo(1), 'cluster');
    expect(status).not.toBe(0);
    expect(output).toMatch(/cluster\s+FAILED \(prerequisite/);
  });

  it('rejects an unknown tier instead of running nothing and passing', () => {
    const { status, output } = run(scratchRepo(0), 'unit clustre');
    expect(status).toBe(2);
    expect(output).toContain('unknown tier "clustre"');
  });
});
