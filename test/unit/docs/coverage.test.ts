// The documentation in both languages covers everything a user can meet: every CLI command, flag
// and exit code on the commands pages, every failure reason the runtime and `status` can print on
// the troubleshooting pages (each with the runtime's exit code), every option in the references.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REASONS, exitCodeOf, type Reason } from '../../../runtime/src/outcome';
import { OPTIONS as FLAGS } from '../../../lib/cli/args';
import { COMPLETABLE_COMMANDS } from '../../../lib/cli/completion';
import { CLI_EXIT } from '../../../lib/cli/exit-codes';
import { LANGUAGES, TROUBLESHOOTING_PATHS } from '../../../lib/docs/generated';
import { FAILURE_REASONS } from '../../../lib/docs/failure-reasons';
import { OPTIONS_DOC_PATHS } from '../../../lib/model/options-doc';
import { FILE_OPTIONS, optionPath } from '../../../lib/model/options';
import { STUCK } from '../../../lib/submit/observe/application-pods';
import { EXIT_CODE_MEANING } from '../../../lib/submit/observe/failure';

const root = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const COMMANDS_PAGES = { en: 'docs/commands.md', zh: 'docs/zh/commands.md' } as const;

/** The status derivation's sources: lib/submit/observe/status.ts and the modules of its folder it imports. */
function statusSources(): string {
  const dir = 'lib/submit/observe';
  const status = read(`${dir}/status.ts`);
  const local = [...status.matchAll(/from '\.\/([a-z-]+)'/g)].map((m) => read(`${dir}/${m[1]}.ts`));
  return [status, ...local].join('\n');
}

/** Reasons `status` writes literally (`reason: 'NotFound'`, `containerReason = 'OOMKilled'`, `reason: \`Init:…\``). */
function literalStatusReasons(): string[] {
  const source = statusSources();
  const found = [...source.matchAll(/(?:reason: |containerReason = )'([A-Za-z]+)'/g)].map((m) => m[1]);
  if (/reason: `Init:/.test(source)) found.push('Init:<reason>');
  return found;
}

describe.each(LANGUAGES)('docs in %s', (lang) => {
  const commands = read(COMMANDS_PAGES[lang]);
  const troubleshooting = read(TROUBLESHOOTING_PATHS[lang]);
  const options = read(OPTIONS_DOC_PATHS[lang]);

  test('every command has its own heading on the commands page', () => {
    const missing = COMPLETABLE_COMMANDS.filter(
      (c) => c !== 'help' && !new RegExp(`^#{2,3} \`${c}\``, 'm').test(commands),
    );
    expect(missing).toEqual([]);
  });

  test('every flag is on the commands page', () => {
    const spellings = Object.entries(FLAGS).flatMap(([name, def]) => [
      ...(name.length > 1 ? [`--${name}`] : []),
      ...('short' in def ? [`-${def.short}`] : []),
    ]);
    expect(spellings.filter((s) => !new RegExp(`\`${s}[\\s\`=]`).test(commands))).toEqual([]);
  });

  test('every exit code is in the exit code table', () => {
    expect(Object.values(CLI_EXIT).filter((code) => !new RegExp(`^\\| ${code} \\|`, 'm').test(commands))).toEqual([]);
  });

  test('every failure reason has a row on the troubleshooting page', () => {
    expect(Object.keys(FAILURE_REASONS).filter((r) => !troubleshooting.includes(`| \`${r}\` |`))).toEqual([]);
  });

  test('every option has a row in the option reference', () => {
    expect(FILE_OPTIONS.filter(([, d]) => !options.includes(`| \`${d.key}\` |`)).map(([, d]) => d.key)).toEqual([]);
  });
});

test('every reason the runtime reports is documented, with its exit code', () => {
  const reasons = Object.keys(REASONS) as Reason[];
  expect(reasons.filter((r) => !FAILURE_REASONS[r])).toEqual([]);
  expect(reasons.filter((r) => FAILURE_REASONS[r].exit !== exitCodeOf(r))).toEqual([]);
  expect(reasons.filter((r) => FAILURE_REASONS[r].by !== 'runtime')).toEqual([]);
});

test('every reason status prints is documented', () => {
  const printed = [
    ...literalStatusReasons(),
    ...STUCK,
    ...Object.keys(EXIT_CODE_MEANING).map((code) => `exit code ${code}`),
  ];
  expect(printed.length).toBeGreaterThan(STUCK.size + 3);
  expect(printed.filter((r) => !FAILURE_REASONS[r])).toEqual([]);
});

test('each entry has both languages, and the Chinese is Chinese', () => {
  for (const e of Object.values(FAILURE_REASONS)) {
    for (const t of [e.en.meaning, e.en.action, e.zh.meaning, e.zh.action]) expect(t.length).toBeGreaterThan(5);
    expect(e.zh.meaning + e.zh.action).toMatch(/[\u4e00-\u9fff]/);
  }
});

/**
 * Advice must name options that exist: every `application.…` / `kubernetes.…` key the docs, the
 * READMEs and the failure reasons write is an option, a section of options (`kubernetes.master.*`),
 * or a sub-key of an option family or object (`kubernetes.runtime-files.engine`). A recommendation of
 * an option that does not exist (`-Dkubernetes.master.affinity=…`) fails here.
 */
test('every option key the documentation names exists', () => {
  const pages = [
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
    ...readdirSync(join(root, 'docs', 'zh'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/zh/${f}`),
    'README.md',
    'README.zh-CN.md',
    'lib/docs/failure-reasons.ts',
  ];
  const options = FILE_OPTIONS.map(([, d]) => ({
    path: optionPath(d),
    open: d.family === true || d.type === 'object',
  }));
  const exists = (key: string) =>
    options.some((o) => o.path === key || o.path.startsWith(`${key}.`) || (o.open && key.startsWith(`${o.path}.`)));
  const unknown = pages.flatMap((page) =>
    [...read(page).matchAll(/(?<![\w./-])((?:application|kubernetes)\.[A-Za-z0-9][\w.<>*-]*)(?![\w.<>*/-])/g)]
      .map((m) => m[1].replace(/\.\*$/, '').replace(/\.$/, ''))
      .filter((key) => !exists(key))
      .map((key) => `${page}: ${key}`),
  );
  expect(unknown).toEqual([]);
  // The check itself: it would see the advice this test exists for.
  expect(exists('kubernetes.master.affinity')).toBe(false);
  expect(exists('kubernetes.master.spread')).toBe(true);
});
