// tools/images/write-image.mjs: the docker-archive it writes is self-consistent (what
// `ctr images import` checks: the config's diff_ids are the layers' sha256, the config file is
// named by its own sha256, RepoTags carries the ref), so is the OCI image layout archive beside it
// (index → manifest → config and layers, every blob named by its sha256; the printed manifest digest
// is the manifest's), and the same input gives the same bytes. (That containerd imports these
// archives is proven by tools/images/smoke.sh and the node tier.)

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const WRITER = path.resolve(__dirname, '..', '..', '..', 'tools', 'images', 'write-image.mjs');
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-image-'));
  fs.mkdirSync(path.join(dir, 'root', 'app'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'root', 'app', 'hello'), 'hello\n');
  const tar = spawnSync('tar', ['-cf', path.join(dir, 'layer.tar'), '--mtime=@0', '-C', path.join(dir, 'root'), 'app']);
  expect(tar.status).toBe(0);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(out: string, ...extra: string[]) {
  const args = [WRITER, '--out', out, '--ref', 'localhost/x/app:1', '--layer', path.join(dir, 'layer.tar'), ...extra];
  return spawnSync(process.execPath, args, { encoding: 'utf8' });
}

function members(archive: string): Map<string, Buffer> {
  const x = path.join(dir, `x-${path.basename(archive)}`);
  fs.mkdirSync(x);
  expect(spawnSync('tar', ['-xf', archive, '-C', x]).status).toBe(0);
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(x, p), fs.readFileSync(p));
    }
  };
  walk(x);
  return out;
}

describe('write-image.mjs', () => {
  it('writes manifest.json, a config named by its digest and each layer under its diff id', () => {
    const r = write(path.join(dir, 'a.tar'), '--env', 'A=1', '--cmd', '["/app/hello"]', '--workdir', '/app');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const files = members(path.join(dir, 'a.tar'));
    const layerSha = sha(fs.readFileSync(path.join(dir, 'layer.tar')));
    const [manifest] = JSON.parse(files.get('manifest.json')!.toString()) as Array<{
      Config: string;
      RepoTags: string[];
      Layers: string[];
    }>;
    expect(manifest.RepoTags).toEqual(['localhost/x/app:1']);
    expect(manifest.Layers).toEqual([`${layerSha}/layer.tar`]);
    const configBytes = files.get(manifest.Config)!;
    expect(manifest.Config).toBe(`${sha(configBytes)}.json`);
    const config = JSON.parse(configBytes.toString()) as {
      rootfs: { diff_ids: string[] };
      config: Record<string, unknown>;
      os: string;
    };
    expect(config.rootfs.diff_ids).toEqual([`sha256:${layerSha}`]);
    expect(config.config).toEqual({ Env: ['A=1'], Cmd: ['/app/hello'], WorkingDir: '/app' });
    expect(config.os).toBe('linux');
    expect(sha(files.get(`${layerSha}/layer.tar`)!)).toBe(layerSha);
    const printed = JSON.parse(r.stdout) as { configDigest: string; archive: string };
    expect(printed.configDigest).toBe(`sha256:${sha(configBytes)}`);
    expect(printed.archive).toBe('a.tar');
  });

  it('records an entry point and a user when given, and refuses an entry point that is not a JSON array of strings', () => {
    const r = write(path.join(dir, 'u.tar'), '--entrypoint', '["/app/hello"]', '--cmd', '["-v"]', '--user', '1000');
    expect(r.status).toBe(0);
    const files = members(path.join(dir, 'u.tar'));
    const [manifest] = JSON.parse(files.get('manifest.json')!.toString()) as Array<{ Config: string }>;
    const config = JSON.parse(files.get(manifest.Config)!.toString()) as { config: Record<string, unknown> };
    expect(config.config).toEqual({ Env: [], Entrypoint: ['/app/hello'], Cmd: ['-v'], User: '1000' });
    const bad = write(path.join(dir, 'v.tar'), '--entrypoint', '/app/hello');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--entrypoint must be a JSON array of strings/);
  });

  it('writes the OCI image layout of the same image: index, manifest, config and layer blobs named by their sha256', () => {
    const r = write(path.join(dir, 'e.tar'), '--cmd', '["/app/hello"]', '--oci-out', path.join(dir, 'e.oci.tar'));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const printed = JSON.parse(r.stdout) as { configDigest: string; manifestDigest: string; ociArchive: string };
    expect(printed.ociArchive).toBe('e.oci.tar');
    const files = members(path.join(dir, 'e.oci.tar'));
    for (const [name, bytes] of files)
      if (name.startsWith('blobs/sha256/')) expect(`blobs/sha256/${sha(bytes)}`).toBe(name);
    expect(JSON.parse(files.get('oci-layout')!.toString())).toEqual({ imageLayoutVersion: '1.0.0' });
    const index = JSON.parse(files.get('index.json')!.toString()) as {
      manifests: Array<{ digest: string; mediaType: string; annotations: Record<string, string> }>;
    };
    expect(index.manifests).toHaveLength(1);
    expect(index.manifests[0].digest).toBe(printed.manifestDigest);
    expect(index.manifests[0].annotations).toEqual({ 'org.opencontainers.image.ref.name': '1' });
    const manifest = JSON.parse(files.get(`blobs/sha256/${printed.manifestDigest.slice(7)}`)!.toString()) as {
      config: { digest: string; size: number };
      layers: Array<{ digest: string; mediaType: string; size: number }>;
    };
    // The same config as the docker-archive's: the image ID does not depend on the archive's form.
    expect(manifest.config.digest).toBe(printed.configDigest);
    const layer = fs.readFileSync(path.join(dir, 'layer.tar'));
    expect(manifest.layers).toEqual([
      { mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: `sha256:${sha(layer)}`, size: layer.length },
    ]);
    expect(
      write(path.join(dir, 'f.tar'), '--cmd', '["/app/hello"]', '--oci-out', path.join(dir, 'f.oci.tar')).status,
    ).toBe(0);
    expect(sha(fs.readFileSync(path.join(dir, 'f.oci.tar')))).toBe(sha(fs.readFileSync(path.join(dir, 'e.oci.tar'))));
  });

  it('gives byte-identical archives for the same input', () => {
    expect(write(path.join(dir, 'b.tar')).status).toBe(0);
    expect(write(path.join(dir, 'c.tar')).status).toBe(0);
    expect(sha(fs.readFileSync(path.join(dir, 'b.tar')))).toBe(sha(fs.readFileSync(path.join(dir, 'c.tar'))));
  });

  it('refuses a CMD that is not a JSON array of strings, naming the option', () => {
    const r = write(path.join(dir, 'd.tar'), '--cmd', '/app/hello');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--cmd must be a JSON array of strings');
    expect(fs.existsSync(path.join(dir, 'd.tar'))).toBe(false);
  });
});
