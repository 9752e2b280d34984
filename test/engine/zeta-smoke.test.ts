// Engine tier: proves that the SeaTunnel Zeta engine assembled from Maven Central (tools/seatunnel/install.sh) runs
// on this machine as a separated master + worker on 127.0.0.1, and that the REST / status / checkpoint / restore
// facts recorded in tools/seatunnel/README.md still hold. The scenarios live in tools/seatunnel/smoke.sh (one
// script, also runnable by hand); this test runs it and fails with its transcript if any check fails.
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');
const smoke = path.join(repo, 'tools', 'seatunnel', 'smoke.sh');
const TIMEOUT_MS = 8 * 60_000;

function runSmoke(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [smoke], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGTERM'), TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test(
  'Zeta master + worker from Maven Central jars: batch, failures, cancel, savepoint/restore, worker loss (smoke.sh)',
  async () => {
    const { code, output } = await runSmoke();
    if (code === 3) {
      throw new Error(`SeaTunnel engine unavailable on this machine (install.sh exit 3):\n${output}`);
    }
    if (code !== 0) {
      throw new Error(`tools/seatunnel/smoke.sh exited ${String(code)}:\n${output}`);
    }
    expect(output).toMatch(/^\d+ passed, 0 failed$/m);
  },
  TIMEOUT_MS + 30_000,
);
