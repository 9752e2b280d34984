// The documentation says one thing, in both languages: every English page has its Chinese page and
// back, with as many headings, table rows and code blocks; the Chinese pages use one word for each term; the README's submitter-Role table is the Role
// the code grants (`submitterRules()`), resource by resource and verb by verb; the quick start names
// every optional peer package. Each rule is checked against the code's own data where there is one,
// and each check is shown to see the mistake it exists for.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PolicyRule } from 'kubernetes-types/rbac/v1';
import { HELP } from '../../../lib/cli/help';
import { submitterRules } from '../../../lib/plan/submitter-rbac';
import { OWNED_KINDS } from '../../../lib/submit/act/cancel';
import { pagesIn, prose, words } from './markdown';

const root = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const README = { en: 'README.md', zh: 'README.zh-CN.md' } as const;
const QUICK_START = { en: 'docs/quick-start.md', zh: 'docs/zh/quick-start.md' } as const;
const zhPages = () => [README.zh, ...pagesIn(root, 'docs/zh')];

describe('every page in both languages', () => {
  test('docs/X.md has docs/zh/X.md, and docs/zh/X.md has docs/X.md', () => {
    const en = pagesIn(root, 'docs').map((p) => p.replace(/^docs\//, ''));
    const zh = pagesIn(root, 'docs/zh').map((p) => p.replace(/^docs\/zh\//, ''));
    expect(en.length).toBeGreaterThan(8);
    expect(en.filter((p) => !zh.includes(p)).map((p) => `docs/zh/${p} is missing`)).toEqual([]);
    expect(zh.filter((p) => !en.includes(p)).map((p) => `docs/${p} is missing`)).toEqual([]);
    expect(Object.values(README).filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });
});

/** What a translation cannot drop without a reader noticing: headings, table rows and code blocks, each counted. */
function shape(markdown: string): { headings: number; tableRows: number; codeBlocks: number } {
  const lines = prose(markdown);
  return {
    headings: lines.filter((l) => /^#{1,6} /.test(l)).length,
    tableRows: lines.filter((l) => l.startsWith('|')).length,
    codeBlocks: markdown.split('\n').filter((l) => /^\s*(```|~~~)/.test(l)).length / 2,
  };
}

const PAIRS: ReadonlyArray<[en: string, zh: string]> = [
  [README.en, README.zh],
  ...pagesIn(root, 'docs').map((en): [string, string] => [en, en.replace(/^docs\//, 'docs/zh/')]),
];

describe('the Chinese page is the English page, not a summary of it', () => {
  test.each(PAIRS)('%s and %s have the same headings, table rows and code blocks', (en, zh) => {
    expect(shape(read(zh))).toEqual(shape(read(en)));
  });

  test('a page that drops a table is seen', () => {
    const page = '# A\n\n| k | v |\n|---|---|\n| a | 1 |\n\n```sh\nls\n```\n';
    expect(shape(page)).toEqual({ headings: 1, tableRows: 3, codeBlocks: 1 });
    expect(shape(page.replace(/\| a \| 1 \|\n/, ''))).not.toEqual(shape(page));
  });
});

/**
 * One Chinese word per term. A rule names what it forbids, what to write instead, and a pattern
 * over the words a reader reads (code spans, link targets and HTML left out: `kubernetes.checkpoint-pvc`
 * and checkpoint-recovery.md are names, not prose).
 */
const TERM_RULES: ReadonlyArray<{ readonly rule: string; readonly pattern: RegExp; readonly caught: string }> = [
  { rule: '你, not 您', pattern: /您/g, caught: '如果您需要' },
  {
    rule: '检查点, not checkpoint',
    pattern: /(?<![\w./#-])[Cc]heckpoints?(?![\w./-])/g,
    caught: '从最近的 checkpoint 恢复',
  },
  {
    // 接管 stays for taking over (a standby master takes over the job, a coordinator re-attaches);
    // taking ownership of Kubernetes objects is 收养.
    rule: '收养 for adopting objects, not 接管',
    pattern: /接管(?:（adopt）|[^，。；：、（）|]{0,12}?(?:worker|对象|StatefulSet|ConfigMap|Secret|Pod|模板|它))/g,
    caught: '之后的协调器会接管之前创建的 worker',
  },
];

function termViolations(page: string, text: string): string[] {
  return prose(text).flatMap((line, i) =>
    TERM_RULES.flatMap(({ rule, pattern }) =>
      [...words(line).matchAll(pattern)].map((m) => `${page}:${i + 1}: "${m[0]}" (${rule})`),
    ),
  );
}

describe('Chinese terms', () => {
  test.each(zhPages())('%s uses one word per term', (page) => {
    expect(termViolations(page, read(page))).toEqual([]);
  });

  test('each rule sees the word it forbids, and not the same letters in a name', () => {
    for (const { caught } of TERM_RULES) expect(termViolations('x', caught)).toHaveLength(1);
    const names =
      '见 [checkpoint-recovery.md](checkpoint-recovery.md)，`kubernetes.checkpoint-pvc`；standby 接管，作业继续';
    expect(termViolations('x', names)).toEqual([]);
  });
});

/** A key for a rule's resource: its API group is named only when it is not Kubernetes' own. */
function resourceKey(group: string, resource: string): string {
  const builtIn = group === '' || group === 'apps' || group === 'batch' || group.endsWith('.k8s.io');
  return builtIn ? resource : `${group}/${resource}`;
}

/** Every `resource verb` pair a list of rules grants. */
function granted(rules: readonly PolicyRule[]): string[] {
  const pairs = rules.flatMap((r) =>
    (r.apiGroups ?? ['']).flatMap((g) =>
      (r.resources ?? []).flatMap((res) => r.verbs.map((v) => `${resourceKey(g, res)} ${v}`)),
    ),
  );
  return [...new Set(pairs)].sort();
}

/**
 * Every `resource verb` pair of the README's submitter-Role table: the first cell's code spans are the
 * resources (one with a dot, `fence.seatunnel.apache.org`, is the group of the others); the second
 * cell lists the verbs, each perhaps followed by a remark in parentheses, the list perhaps followed
 * by one after a dash.
 */
function tablePairs(markdown: string, header: RegExp): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => header.test(l));
  if (start < 0) return [];
  const rows = [];
  for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
  const pairs = rows.flatMap((row) => {
    const [, names, verbs] = row.split('|');
    const spans = [...names.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const group = spans.find((s) => s.includes('.')) ?? '';
    const resources = spans.filter((s) => !s.includes('.'));
    const verbList = verbs
      .replace(/\([^)]*\)|（[^）]*）/g, '')
      .split(/\s+—|——/)[0]
      .split(/[,、]/)
      .map((v) => v.trim())
      .filter((v) => v !== '');
    return resources.flatMap((res) => verbList.map((v) => `${resourceKey(group, res)} ${v}`));
  });
  return [...new Set(pairs)].sort();
}

const ROLE_TABLE_HEADER = { en: /^\| Submitter Role \| verbs \|/, zh: /^\| 提交者 Role \| verb \|/ } as const;

describe.each(['en', 'zh'] as const)('the README (%s)', (lang) => {
  test('the submitter-Role table is submitterRules(): every resource and verb, nothing else', () => {
    const table = tablePairs(read(README[lang]), ROLE_TABLE_HEADER[lang]);
    const code = granted(submitterRules());
    expect(code.length).toBeGreaterThan(40);
    expect({ missing: code.filter((p) => !table.includes(p)), extra: table.filter((p) => !code.includes(p)) }).toEqual({
      missing: [],
      extra: [],
    });
  });

  test('the quick start names every optional peer package', () => {
    const peers = Object.keys(
      (JSON.parse(read('package.json')) as { peerDependencies: Record<string, string> }).peerDependencies,
    );
    expect(peers).toEqual(expect.arrayContaining(['cdk8s', 'cdk8s-plus-28', 'constructs']));
    const installs = read(QUICK_START[lang])
      .split('\n')
      .flatMap((l) => [...l.matchAll(/`npm install ([^`]+)`/g)].map((m) => m[1].split(/\s+/)))
      .flat();
    expect(peers.filter((p) => !installs.includes(p))).toEqual([]);
  });
});

test('the table reader sees a verb or a resource the table lacks', () => {
  const table = [
    '| Submitter Role | verbs |',
    '|---|---|',
    '| `jobs` | create, get (`status`), delete |',
    '| `fence.example.org`: `marks` | use — the fence’s marks |',
  ].join('\n');
  expect(tablePairs(table, ROLE_TABLE_HEADER.en)).toEqual([
    'fence.example.org/marks use',
    'jobs create',
    'jobs delete',
    'jobs get',
  ]);
  const rules: PolicyRule[] = [
    { apiGroups: ['batch'], resources: ['jobs'], verbs: ['create', 'get', 'delete', 'patch'] },
    { apiGroups: ['fence.example.org'], resources: ['marks'], verbs: ['use'] },
  ];
  expect(granted(rules).filter((p) => !tablePairs(table, ROLE_TABLE_HEADER.en).includes(p))).toEqual(['jobs patch']);
});

/**
 * What `cancel` deletes by label (`OWNED_KINDS`), as each description lists it: the parenthesised list
 * that names the Pods. The kinds' names as the prose writes them (plural or not; the PodTemplate is
 * the worker template).
 */
const CANCEL_DESCRIPTIONS: ReadonlyArray<[where: string, text: () => string]> = [
  ['seatunnel-app --help', () => /^ {2}cancel {5}([\s\S]*?)^ {2}\w/m.exec(HELP)?.[1] ?? ''],
  ['docs/commands.md', () => /^## `cancel`\n([\s\S]*?)\n\|/m.exec(read('docs/commands.md'))?.[1] ?? ''],
  ['docs/zh/commands.md', () => /^## `cancel`\n([\s\S]*?)\n\|/m.exec(read('docs/zh/commands.md'))?.[1] ?? ''],
  ['README.md', () => /^\*\*cancel\*\*([\s\S]*?)\n\n/m.exec(read(README.en))?.[1] ?? ''],
  ['README.zh-CN.md', () => /^\*\*cancel\*\*(.*)$/m.exec(read(README.zh))?.[1] ?? ''],
];

function deletedList(description: string): string {
  return [...description.matchAll(/[(（]([^)）]*)[)）]/g)].map((m) => m[1]).find((l) => /\bPods?\b/.test(l)) ?? '';
}

const proseName = (kind: string): RegExp =>
  kind === 'PodTemplate' ? /worker\s+(?:template|模板)/ : new RegExp(`\\b${kind.replace(/y$/, '(?:y|ies)')}s?\\b`);

test.each(CANCEL_DESCRIPTIONS)('%s lists every kind cancel deletes by label among what it deletes', (_where, text) => {
  const list = deletedList(text());
  expect(list).not.toBe('');
  expect(OWNED_KINDS.map((k) => k.kind).filter((kind) => !proseName(kind).test(list))).toEqual([]);
});

test('the list reader sees a kind named only among what is never touched', () => {
  const old =
    'Delete (Pods, Service, ConfigMaps, Secrets, worker template, Role, RoleBinding, NetworkPolicies). The ServiceAccount is never touched.';
  expect(OWNED_KINDS.map((k) => k.kind).filter((kind) => !proseName(kind).test(deletedList(old)))).toEqual([
    'ServiceAccount',
  ]);
});
