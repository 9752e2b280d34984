// What docs/quick-start.md tells a platform team to run, read from the page itself, so a test of
// it cannot drift from what users copy: the submitter Role that its `node -e` snippet prints (run
// here with `require('seatunnel-app')` answered by this checkout's lib/) and its RoleBinding.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { Role } from 'kubernetes-types/rbac/v1';

export const QUICK_START = join(__dirname, '../../docs/quick-start.md');

export interface DocumentedSubmitter {
  /** The Role exactly as the page's snippet prints it. */
  readonly role: Role & { apiVersion: string; kind: string };
  /** `kubectl -n NS create rolebinding NAME --role ROLE …` as the page spells it. */
  readonly binding: { readonly namespace: string; readonly name: string; readonly role: string };
}

/** The fenced `sh` blocks of a Markdown page. */
function shellBlocks(page: string): string[] {
  return [...page.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** Runs the page's `node -e "…"` snippet with `seatunnel-app` resolved to this checkout; what it prints. */
function runSnippet(js: string): string {
  if (/[\\$`]/.test(js))
    throw new Error(`the snippet uses shell escapes or expansions this reader does not model:\n${js}`);
  const printed: string[] = [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require('../../lib');
  const req = (name: string) => {
    if (name !== 'seatunnel-app') throw new Error(`the snippet requires ${name}, not seatunnel-app`);
    return lib;
  };
  runInNewContext(js, { require: req, console: { log: (s: string) => printed.push(s) } });
  return printed.join('\n');
}

export function documentedSubmitter(page = readFileSync(QUICK_START, 'utf8')): DocumentedSubmitter {
  const block = shellBlocks(page).find((b) => b.includes('submitterRules()') && b.includes('create rolebinding'));
  if (!block) throw new Error(`${QUICK_START}: no sh block applies submitterRules() and creates a rolebinding`);
  const snippet = block.match(/node -e "([^"]*)"/);
  if (!snippet) throw new Error(`${QUICK_START}: the submitter block has no node -e "…" snippet`);
  const role = JSON.parse(runSnippet(snippet[1])) as DocumentedSubmitter['role'];
  const bind = block.match(/kubectl -n (\S+) create rolebinding (\S+)\s+(?:\\\n\s*)?--role (\S+)/);
  if (!bind)
    throw new Error(`${QUICK_START}: the submitter block has no kubectl -n NS create rolebinding NAME --role ROLE`);
  return { role, binding: { namespace: bind[1], name: bind[2], role: bind[3] } };
}

/** The Namespace the page's `applicationNamespace(…)` snippet prints. */
export function documentedNamespace(page = readFileSync(QUICK_START, 'utf8')): {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
} {
  const block = shellBlocks(page).find((b) => b.includes('applicationNamespace('));
  const snippet = block?.match(/node -e "([^"]*)"/);
  if (!snippet) throw new Error(`${QUICK_START}: no sh block with a node -e "…applicationNamespace(…)…" snippet`);
  return JSON.parse(runSnippet(snippet[1])) as ReturnType<typeof documentedNamespace>;
}

/** The page's deployment file and job file: its first two `hocon` blocks, in that order. */
export function documentedFiles(page = readFileSync(QUICK_START, 'utf8')): { deploy: string; job: string } {
  const blocks = [...page.matchAll(/^```hocon\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  if (blocks.length < 2 || !blocks[0].includes('kubernetes') || !blocks[1].includes('source'))
    throw new Error(`${QUICK_START}: expected the deployment file and then the job file as hocon blocks`);
  return { deploy: blocks[0], job: blocks[1] };
}

/** The `npx seatunnel-app …` commands of the first sh block that has `marker`, each as its words (comments dropped). */
export function documentedCommands(marker: string, page = readFileSync(QUICK_START, 'utf8')): string[][] {
  const block = shellBlocks(page).find((b) => b.includes(marker));
  if (!block) throw new Error(`${QUICK_START}: no sh block with ${marker}`);
  return block
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter((l) => l.startsWith('npx seatunnel-app '))
    .map((l) => l.split(/\s+/).slice(2));
}

/**
 * The page's runtime-image block (the sh block with `npm run image` and `images import`): the
 * `npm run image` command and the `ctr … images import <archive>` line to run on every node, each as
 * its words (comments, `sudo` and a leading `npm ci &&` dropped: the checkout is installed already).
 */
export function documentedImageSteps(page = readFileSync(QUICK_START, 'utf8')): { build: string[]; load: string[] } {
  const block = shellBlocks(page).find((b) => b.includes('npm run image') && b.includes('images import'));
  if (!block) throw new Error(`${QUICK_START}: no sh block builds the runtime image and imports it`);
  const lines = block
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter(Boolean);
  const build = lines.find((l) => l.includes('npm run image'))!.replace(/^npm ci &&\s*/, '');
  const load = lines.find((l) => l.includes('images import'));
  if (!load || !/^(sudo )?ctr /.test(load))
    throw new Error(`${QUICK_START}: the runtime-image block's import is not a ctr line: ${load}`);
  return { build: build.split(/\s+/), load: load.replace(/^sudo /, '').split(/\s+/) };
}
