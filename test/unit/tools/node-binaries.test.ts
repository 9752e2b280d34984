// tools/node/build.sh --paths is the contract between the node's build script and the harness
// (tools/local-stack/node-binaries.ts): one `name=/abs/path` line per part, ` (missing)` when it
// is not there yet, the Go parts cached under SEATUNNEL_APP_CACHE. Run against an empty cache,
// so the Go parts are missing whatever this machine has built; the Debian parts depend on the
// machine, so only their form is checked.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { readBuildPaths } from '../../../tools/local-stack/binaries';
import { componentsFor, NODE_PARTS, nodeBuildScript } from '../../../tools/local-stack/node-binaries';

describe('tools/node/build.sh --paths', () => {
  let cache: string;
  beforeAll(() => {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'st-node-paths-'));
  });
  afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));
  const env = () => ({ ...process.env, SEATUNNEL_APP_CACHE: cache });

  it('prints every part the harness resolves exactly once, with an absolute path', () => {
    const out = execFileSync('bash', [nodeBuildScript(), '--paths'], { env: env(), encoding: 'utf8' });
    const names = out
      .trim()
      .split('\n')
      .map((l) => /^([a-z0-9-]+)=(\/\S*)( \(missing\))?$/.exec(l)?.[1] ?? `unparsable line: ${l}`);
    for (const part of NODE_PARTS) expect(names.filter((n) => n === part)).toEqual([part]);
    expect(names.filter((n) => n.startsWith('unparsable'))).toEqual([]);
  });

  it('reports the Go parts missing, under the cache it was given, and builds nothing', async () => {
    const { found, missing } = await readBuildPaths(nodeBuildScript(), NODE_PARTS, env());
    expect(missing).toEqual(expect.arrayContaining(['kubernetes-node', 'kube-router', 'coredns']));
    expect([...Object.keys(found), ...missing].sort()).toEqual([...NODE_PARTS].sort());
    const out = execFileSync('bash', [nodeBuildScript(), '--paths'], { env: env(), encoding: 'utf8' });
    expect(out).toContain(`kube-router=${path.join(cache, 'node', 'kube-router-v')}`);
    expect(out).toContain(`coredns=${path.join(cache, 'node', 'coredns-v')}`);
    expect(out).toContain(`kubernetes-node=${path.join(cache, 'testbin', 'kubernetes-node')}`);
    expect(fs.readdirSync(cache)).toEqual([]);
  });

  it('maps missing Debian parts to one `packages` install and Go parts to their own builds', () => {
    expect(componentsFor(['containerd', 'runc', 'cni', 'kube-router', 'socat'])).toEqual(['packages', 'kube-router']);
    expect(componentsFor(['kubernetes-node', 'coredns'])).toEqual(['kubernetes-node', 'coredns']);
  });
});
