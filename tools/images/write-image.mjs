#!/usr/bin/env node
// Writes a docker-archive (the `docker save` layout that `ctr images import` reads) from layer
// tarballs that already exist, without Docker:
//
//   manifest.json                 [{Config, RepoTags, Layers}]
//   <sha256 of config>.json       the image config: rootfs.diff_ids = sha256 of each layer tar
//   <sha256 of layer>/layer.tar   each layer, uncompressed
//
// docker-archive rather than an OCI layout because containerd normalizes RepoTags the way the
// kubelet normalizes a Pod's `image` (a short name like `seatunnel-app-runtime:0.1.0` gets the
// default domain and `library/`), so the plan's default image ref resolves with no registry name
// written here. The config digest (the image ID) is printed as JSON and is what
// tools/local-stack/node-images.ts compares to decide whether an import is needed.
//
// With --oci-out it also writes the same image as an OCI image layout archive (oci-layout,
// index.json, blobs/sha256/…; layers uncompressed, so no compressor's version shapes a digest), the
// form registries' copy tools read (`skopeo copy oci-archive:…`, `crane push`, `regctl image import`).
// Its manifest digest is printed as manifestDigest: the digest a registry serves when the blobs are
// copied unchanged. Both archives are byte-for-byte the same from the same layers and settings.
//
//   node write-image.mjs --out <archive.tar> --ref <name:tag> --layer <a.tar> [--layer <b.tar> …]
//        [--env K=V …] [--entrypoint '<json array>'] [--cmd '<json array>'] [--workdir <dir>] [--user <uid>]
//        [--history '<text>' (one per layer)]
//        [--oci-out <archive.oci.tar>]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    ref: { type: 'string', multiple: true, default: [] },
    layer: { type: 'string', multiple: true, default: [] },
    history: { type: 'string', multiple: true, default: [] },
    env: { type: 'string', multiple: true, default: [] },
    entrypoint: { type: 'string' },
    cmd: { type: 'string' },
    workdir: { type: 'string' },
    user: { type: 'string' },
    'oci-out': { type: 'string' },
  },
});

function fail(msg) {
  process.stderr.write(`write-image: ${msg}\n`);
  process.exit(1);
}

if (!values.out) fail('--out <archive.tar> is required');
if (values.ref.length === 0) fail('--ref <name:tag> is required (repeat it for more names of the same image)');
if (values.layer.length === 0) fail('at least one --layer <tar> is required');
if (values.history.length > 0 && values.history.length !== values.layer.length) {
  fail(`--history given ${values.history.length} times for ${values.layer.length} layers; give one per layer or none`);
}

async function sha256File(file) {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk);
  return hash.digest('hex');
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

const layers = [];
for (const file of values.layer) {
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) fail(`layer ${file} is not a file`);
  layers.push({ file, sha: await sha256File(file), size: fs.statSync(file).size });
}

/** A tar of `members` (relative to `dir`) at `file`, the same bytes from the same files: fixed owner and times. */
function writeTar(dir, members, file) {
  const tar = spawnSync(
    'tar',
    [
      '--create',
      '--file',
      `${file}.tmp`,
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      '--mtime=@0',
      '--hard-dereference',
      '--no-recursion',
      '-C',
      dir,
      ...members,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (tar.status !== 0) fail(`tar exited with ${tar.status ?? tar.signal}`);
  fs.renameSync(`${file}.tmp`, file);
}

/** Hard-links (or copies) a layer into a staging directory. */
function stageLayer(file, dest) {
  if (fs.existsSync(dest)) return;
  try {
    fs.linkSync(file, dest);
  } catch {
    fs.copyFileSync(file, dest);
  }
}

/** The OCI image layout archive of the same image; returns the manifest's digest. */
function writeOciArchive(file) {
  const blob = (mediaType, sha, size) => ({ mediaType, digest: `sha256:${sha}`, size });
  const ociManifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: blob('application/vnd.oci.image.config.v1+json', configSha, Buffer.byteLength(configJson)),
    layers: layers.map((l) => blob('application/vnd.oci.image.layer.v1.tar', l.sha, l.size)),
  });
  const manifestSha = sha256(ociManifest);
  // OCI's ref.name is the tag alone; the repository is whatever the copy tool is told.
  const tag = values.ref[0].includes(':') ? values.ref[0].slice(values.ref[0].lastIndexOf(':') + 1) : 'latest';
  const index = JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.index.v1+json',
    manifests: [
      {
        ...blob('application/vnd.oci.image.manifest.v1+json', manifestSha, Buffer.byteLength(ociManifest)),
        annotations: { 'org.opencontainers.image.ref.name': tag },
      },
    ],
  });
  const dir = `${path.resolve(file)}.staging`;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'blobs', 'sha256'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  fs.writeFileSync(path.join(dir, 'index.json'), index);
  fs.writeFileSync(path.join(dir, 'blobs', 'sha256', configSha), configJson);
  fs.writeFileSync(path.join(dir, 'blobs', 'sha256', manifestSha), ociManifest);
  for (const l of layers) stageLayer(l.file, path.join(dir, 'blobs', 'sha256', l.sha));
  const blobs = [...new Set([configSha, manifestSha, ...layers.map((l) => l.sha)])].sort();
  writeTar(dir, ['oci-layout', 'index.json', 'blobs', 'blobs/sha256', ...blobs.map((b) => `blobs/sha256/${b}`)], file);
  fs.rmSync(dir, { recursive: true, force: true });
  return `sha256:${manifestSha}`;
}

/** A JSON array of strings given as --<option>, or undefined when the option is absent. */
function stringArray(option) {
  const text = values[option];
  if (text === undefined) return undefined;
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    fail(`--${option} must be a JSON array of strings: ${e.message}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((s) => typeof s === 'string'))
    fail(`--${option} must be a JSON array of strings`);
  return parsed;
}
const entrypoint = stringArray('entrypoint');
const cmd = stringArray('cmd');

// A fixed creation time: the same layers and settings give the same image ID on every machine.
const created = '1970-01-01T00:00:00Z';
const config = {
  architecture: 'amd64',
  os: 'linux',
  created,
  config: {
    Env: values.env,
    ...(entrypoint ? { Entrypoint: entrypoint } : {}),
    ...(cmd ? { Cmd: cmd } : {}),
    ...(values.workdir ? { WorkingDir: values.workdir } : {}),
    ...(values.user ? { User: values.user } : {}),
  },
  rootfs: { type: 'layers', diff_ids: layers.map((l) => `sha256:${l.sha}`) },
  history: layers.map((l, i) => ({ created, created_by: values.history[i] ?? path.basename(l.file) })),
};
const configJson = JSON.stringify(config);
const configSha = sha256(configJson);
const manifest = [
  { Config: `${configSha}.json`, RepoTags: values.ref, Layers: layers.map((l) => `${l.sha}/layer.tar`) },
];

// Staged next to the archive so that hard links work (the layers are in the same cache); the
// archive appears under its final name only when complete.
const out = path.resolve(values.out);
const staging = `${out}.staging`;
fs.rmSync(staging, { recursive: true, force: true });
fs.mkdirSync(staging, { recursive: true });
fs.writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(manifest));
fs.writeFileSync(path.join(staging, `${configSha}.json`), configJson);
for (const l of layers) {
  fs.mkdirSync(path.join(staging, l.sha), { recursive: true });
  stageLayer(l.file, path.join(staging, l.sha, 'layer.tar'));
}
const members = [
  'manifest.json',
  `${configSha}.json`,
  ...[...new Set(layers.map((l) => l.sha))].map((s) => `${s}/layer.tar`),
];
writeTar(staging, members, out);
fs.rmSync(staging, { recursive: true, force: true });
// File names, not paths: the archives are written under a temporary directory that is then renamed.
const oci = values['oci-out']
  ? { ociArchive: path.basename(values['oci-out']), manifestDigest: writeOciArchive(values['oci-out']) }
  : {};

process.stdout.write(
  `${JSON.stringify({
    ref: values.ref[0],
    aliases: values.ref.slice(1),
    archive: path.basename(out),
    configDigest: `sha256:${configSha}`,
    layers: layers.map((l) => ({ diffId: `sha256:${l.sha}`, size: l.size })),
    size: fs.statSync(out).size,
    ...oci,
  })}\n`,
);
