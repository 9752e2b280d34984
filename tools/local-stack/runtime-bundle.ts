// The runtime bundle (runtime/dist/runtime.cjs) that the local stack runs as the master's
// container, rebuilt when any of its sources is newer. Also used by the runtime's cluster tests
// and bench/runtime.ts.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root, found from here whether this file runs from source (Jest, ts-node) or compiled (build/). */
function repoDir(): string {
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'runtime', 'build.mjs'))) return d;
  }
  throw new Error(`cannot find the repository root above ${__dirname}`);
}

export const REPO_DIR = repoDir();
export const RUNTIME_DIR = path.join(REPO_DIR, 'runtime');
export const BUNDLE = path.join(RUNTIME_DIR, 'dist', 'runtime.cjs');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (/\.(ts|mjs|cjs|js)$/.test(entry.name)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds runtime/dist/runtime.cjs (`npm run -w runtime bundle`) when it is missing or older than its sources. */
export function ensureBundle(): string {
  const sources = Math.max(
    newestMtime(path.join(RUNTIME_DIR, 'src')),
    newestMtime(path.join(REPO_DIR, 'lib')),
    fs.statSync(path.join(RUNTIME_DIR, 'build.mjs')).mtimeMs,
  );
  if (fs.existsSync(BUNDLE) && fs.statSync(BUNDLE).mtimeMs >= sources) return BUNDLE;
  const r = spawnSync(process.execPath, [path.join(RUNTIME_DIR, 'build.mjs')], {
    cwd: RUNTIME_DIR,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  if (r.status !== 0) throw new Error(`bundling the runtime failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return BUNDLE;
}
