#!/usr/bin/env node
// `npm run image`: the runtime image as a release artefact. Builds it (tools/images/build.sh runtime:
// Node.js, install-runtime and the runtime bundle, from pinned inputs only), copies its two archives
// out of the cache, records its digests in the package (runtime-image.json, which `npm pack` ships and
// the CLI reads), and prints them:
//
//   <out>/seatunnel-app-runtime-<version>.oci.tar   OCI image layout: for registries (skopeo, crane, regctl)
//   <out>/seatunnel-app-runtime-<version>.tar       docker-archive: for `ctr images import`, `k3s ctr images
//                                                   import`, `kind load image-archive`, `docker load`
//
//   npm run image [-- --out <dir>]     (default dist/image)
//   npm run image -- --verify          also build it again from nothing (an empty cache: Node.js fetched
//                                      again, install-runtime compiled again) and fail unless the digests match
//   npm run image -- --ensure          (prepack) nothing when runtime-image.json records the current bundle, else
//                                      build and record it: a packed package never records another bundle's image
//                                      (where it cannot be built, the record is removed and packing goes on)
//
// The image ID (the config's digest) is the same however the image travels; the manifest digest is the one a
// registry serves when the OCI archive's blobs are copied unchanged (`skopeo copy --preserve-digests`).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const HERE = path.dirname(new URL(import.meta.url).pathname);
const REPO = path.resolve(HERE, '..', '..');
const BUILD = path.join(HERE, 'build.sh');
const RECORD = path.join(REPO, 'runtime-image.json');
const BUNDLE = path.join(REPO, 'runtime', 'dist', 'runtime.cjs');

function fail(msg) {
  process.stderr.write(`npm run image: ${msg}\n`);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: path.join(REPO, 'dist', 'image') },
    verify: { type: 'boolean', default: false },
    ensure: { type: 'boolean', default: false },
  },
});

const sha256File = (file) => `sha256:${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}`;

/** Builds the runtime image into the cache at `cacheRoot` (progress on stderr); returns its directory and image.json. */
function build(cacheRoot) {
  // From nothing means Go's build cache too: install-runtime is compiled again, not taken from it.
  const env = {
    ...process.env,
    ...(cacheRoot ? { SEATUNNEL_APP_CACHE: cacheRoot, GOCACHE: path.join(cacheRoot, 'go-build') } : {}),
  };
  const r = spawnSync('bash', [BUILD, 'runtime'], { env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) {
    // prepack on a machine that cannot build images (no Go, no GNU tar: macOS): the package is
    // packed without a record — never with one of another bundle — and status compares nothing.
    if (values.ensure) {
      fs.rmSync(RECORD, { force: true });
      process.stderr.write(
        `[image] warning: the runtime image could not be built here (tools/images/build.sh exited with ${r.status ?? r.signal}); ` +
          'the package records no runtime image (build it with `npm run image` on Linux with Go to record it)\n',
      );
      process.exit(0);
    }
    fail(`tools/images/build.sh runtime exited with ${r.status ?? r.signal}`);
  }
  const line = r.stdout.split('\n').find((l) => l.startsWith('runtime ref='));
  const m = /^runtime ref=(\S+) archive=(\S+)$/.exec(line ?? '');
  if (!m || m[2] === '(missing)') fail(`tools/images/build.sh printed no runtime archive:\n${r.stdout}`);
  const dir = path.dirname(m[2]);
  const info = JSON.parse(fs.readFileSync(path.join(dir, 'image.json'), 'utf8'));
  return { ref: m[1], dir, info };
}

/** What the package records: enough to name the image by digest and to tell whether it matches the bundle. */
function recordOf({ ref, info }) {
  return {
    comment:
      'Written by `npm run image` (tools/images/release.mjs): the runtime image this package expects. Not in git: a release is packed after `npm run image`.',
    ref,
    imageId: info.configDigest,
    manifestDigest: info.manifestDigest,
    bundle: sha256File(BUNDLE),
  };
}

/** Why runtime-image.json does not describe the current bundle, or undefined when it does. */
function staleRecord() {
  if (!fs.existsSync(RECORD)) return `${path.relative(REPO, RECORD)} is missing`;
  if (!fs.existsSync(BUNDLE)) return 'runtime/dist/runtime.cjs is missing';
  const rec = JSON.parse(fs.readFileSync(RECORD, 'utf8'));
  if (rec.bundle !== sha256File(BUNDLE)) return `${path.relative(REPO, RECORD)} records another runtime bundle`;
  return undefined;
}

if (values.ensure) {
  const why = staleRecord();
  if (!why) {
    const rec = JSON.parse(fs.readFileSync(RECORD, 'utf8'));
    process.stderr.write(`[image] runtime-image.json records this bundle: ${rec.ref} ${rec.manifestDigest}\n`);
    process.exit(0);
  }
  process.stderr.write(`[image] ${why}: building and recording the runtime image\n`);
}

const built = build();
const record = recordOf(built);
const version = built.ref.slice(built.ref.lastIndexOf(':') + 1);
const name = built.ref.slice(0, built.ref.lastIndexOf(':'));
const out = path.resolve(values.out);
fs.mkdirSync(out, { recursive: true });
const copies = [
  [built.info.ociArchive, `${name}-${version}.oci.tar`],
  [built.info.archive, `${name}-${version}.tar`],
].map(([from, to]) => {
  const dest = path.join(out, to);
  fs.rmSync(dest, { force: true });
  try {
    fs.linkSync(path.join(built.dir, from), dest); // the cache is on the same file system: no second copy
  } catch {
    fs.copyFileSync(path.join(built.dir, from), dest);
  }
  return dest;
});
fs.writeFileSync(RECORD, `${JSON.stringify(record, null, 2)}\n`);
fs.writeFileSync(path.join(out, `${name}-${version}.json`), `${JSON.stringify(record, null, 2)}\n`);

if (values.verify) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-image-verify-'));
  try {
    process.stderr.write(`[image] --verify: building it again from an empty cache at ${scratch}\n`);
    const again = recordOf(build(scratch));
    for (const key of ['imageId', 'manifestDigest']) {
      if (again[key] !== record[key])
        fail(`not reproducible: ${key} ${record[key]} from the cache, ${again[key]} from nothing (kept: ${scratch})`);
    }
    fs.rmSync(scratch, { recursive: true, force: true });
    process.stderr.write('[image] --verify: the same digests from nothing\n');
  } catch (e) {
    fail(e.message);
  }
}

process.stdout.write(
  [
    `image        ${built.ref}`,
    `manifest     ${record.manifestDigest}   (a registry serves this digest when the blobs are copied unchanged)`,
    `image ID     ${record.imageId}   (the same after any load or push)`,
    `OCI archive  ${copies[0]}`,
    `docker-archive ${copies[1]}`,
    `recorded in  ${path.relative(process.cwd(), RECORD) || RECORD}`,
    '',
  ].join('\n'),
);
