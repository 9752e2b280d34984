// docs/architecture.md is a map, so it must lead where it says: every repository path it names
// exists, every name it gives in parentheses right after a source file is in that file, its layer
// table is the rule every import in lib/ follows, and the Chinese page names the same paths and the
// same layers. A file moved, a symbol renamed or an import across the layers fails here, and the
// message says whether to fix the code or the map.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const LIB = join(root, 'lib');
const PAGES = { en: 'docs/architecture.md', zh: 'docs/zh/architecture.md' } as const;
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Repository paths the page names in code spans (`lib/plan/pod.ts`, `runtime/src/topology/`); placeholders such as `<name>` are not paths. */
function namedPaths(page: string): Set<string> {
  const spans = read(page).matchAll(/`((?:lib|runtime|test|tools|bench|apps|docs|bin)\/[\w./-]*)`/g);
  return new Set([...spans].map((m) => m[1]));
}

/** `lib/x.ts` (`a`, `b`: …) — each code-span identifier in the parentheses right after a source file, with that file. */
function namedSymbols(page: string): Array<[file: string, name: string]> {
  const mentions = read(page).matchAll(/`((?:lib|runtime|test)\/[\w./-]+\.(?:ts|mjs))` ?[(（]([^)）]*)[)）]/g);
  return [...mentions].flatMap((m) =>
    [...m[2].matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`/g)].map((n): [string, string] => [m[1], n[1]]),
  );
}

/** The layer table: each `lib/<folder>/` or `lib/<entry>.ts` row and the layers its last column allows it to import. */
function layerRules(page: string): Map<string, Set<string>> {
  const rules = new Map<string, Set<string>>();
  for (const line of read(page).split('\n')) {
    const row = /^\| `lib\/([\w-]+)(?:\/|\.ts)` \|/.exec(line);
    if (!row) continue;
    const cells = line.split('|');
    const allowed = [...cells[cells.length - 2].matchAll(/`([a-z][\w-]*)`/g)].map((m) => m[1]);
    rules.set(row[1], new Set(allowed));
  }
  return rules;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The layer of a path inside lib/: its top folder, or the entry file's name. */
function layerOf(path: string): string {
  return relative(LIB, path).split(sep)[0].replace(/\.ts$/, '');
}

describe.each(Object.entries(PAGES))('%s', (_lang, page) => {
  test('every path it names exists', () => {
    const paths = [...namedPaths(page)];
    expect(paths.length).toBeGreaterThan(80);
    expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });

  test('every name given after a source file is in that file', () => {
    const symbols = namedSymbols(page);
    expect(symbols.length).toBeGreaterThan(60);
    const absent = symbols.filter(([file, name]) => !new RegExp(`\\b${name.replace('$', '\\$')}\\b`).test(read(file)));
    expect(absent.map(([file, name]) => `${file}: ${name}`)).toEqual([]);
  });
});

test('the Chinese map names the same paths and the same layers as the English one', () => {
  expect([...namedPaths(PAGES.zh)].sort()).toEqual([...namedPaths(PAGES.en)].sort());
  expect(layerRules(PAGES.zh)).toEqual(layerRules(PAGES.en));
});

test('every folder and entry of lib/ has a row in the layer table', () => {
  const rules = layerRules(PAGES.en);
  const layers = readdirSync(LIB, { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
    .map((e) => e.name.replace(/\.ts$/, ''));
  expect(layers.filter((l) => !rules.has(l))).toEqual([]);
  // Every layer a row allows is a layer.
  expect([...rules.values()].flatMap((allowed) => [...allowed].filter((l) => !rules.has(l)))).toEqual([]);
});

test('every import in lib/ follows the layer table', () => {
  const rules = layerRules(PAGES.en);
  // The rule as the table states it: the plan may use the model, never the other way round.
  expect(rules.get('plan')).toContain('model');
  expect(rules.get('model')).not.toContain('plan');
  let imports = 0;
  const offenders = tsFiles(LIB).flatMap((file) => {
    const layer = layerOf(file);
    const specs = readFileSync(file, 'utf8').matchAll(/(?:from|import\(|require\()\s*'(\.\.?\/[^']+)'/g);
    return [...specs].flatMap((m) => {
      const target = resolve(dirname(file), m[1]);
      if (!target.startsWith(LIB + sep)) return [];
      imports++;
      const to = layerOf(target);
      return to === layer || rules.get(layer)?.has(to)
        ? []
        : [
            `${relative(root, file)} imports ${m[1]} (${layer} → ${to}): move the code, or change the layer table of docs/architecture.md if the design changed`,
          ];
    });
  });
  expect(imports).toBeGreaterThan(300);
  expect(offenders).toEqual([]);
});
