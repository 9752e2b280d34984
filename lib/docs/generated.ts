// The generated parts of the documentation, in English and Chinese: the option references
// (whole files) and the failure-reason table of the troubleshooting pages (a marked region of a
// hand-written page). `seatunnel-app docs --write` (npm run docs) writes them; `--check` and a unit
// test compare them with the committed files.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPTIONS_DOC_PATHS, renderOptionsReference, type DocLanguage } from '../model/options-doc';
import { FAILURE_REASONS, type ReasonEntry } from './failure-reasons';

export const LANGUAGES: readonly DocLanguage[] = ['en', 'zh'];

/** The troubleshooting page of each language, relative to the package root. */
export const TROUBLESHOOTING_PATHS: Record<DocLanguage, string> = {
  en: 'docs/troubleshooting.md',
  zh: 'docs/zh/troubleshooting.md',
};

const REGION = 'failure-reasons';
const BEGIN = `<!-- BEGIN GENERATED ${REGION}: \`npm run docs\` writes this table from lib/docs/failure-reasons.ts. Do not edit by hand. -->`;
const END = `<!-- END GENERATED ${REGION} -->`;

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const HEAD: Record<DocLanguage, { runtime: string; status: string; header: string }> = {
  en: {
    runtime:
      "### Reported by the runtime (Job annotation `failure-reason`, the Job's final Event, `status`'s `Reason:`)",
    status: '### Reported by `status` only (from the Job, its Pods and their Events)',
    header: '| Reason | Status | Exit code | Meaning | What to do |',
  },
  zh: {
    runtime: '### 由 runtime 报告（Job 注解 `failure-reason`、Job 的最终 Event、`status` 的 `Reason:`）',
    status: '### 仅由 `status` 报告（来自 Job、其 Pod 及 Events）',
    header: '| 原因 | 状态 | 退出码 | 含义 | 处理方法 |',
  },
};

/** The failure-reason table in one language: every entry of FAILURE_REASONS, the runtime's first. */
export function renderFailureReasons(lang: DocLanguage): string {
  const h = HEAD[lang];
  const rows = (by: ReasonEntry['by']) =>
    Object.entries(FAILURE_REASONS)
      .filter(([, e]) => e.by === by)
      .map(
        ([reason, e]) =>
          `| \`${reason}\` | ${e.status} | ${e.exit ?? ''} | ${cell(e[lang].meaning)} | ${cell(e[lang].action)} |`,
      );
  return [
    h.runtime,
    '',
    h.header,
    '|---|---|---|---|---|',
    ...rows('runtime'),
    '',
    h.status,
    '',
    h.header,
    '|---|---|---|---|---|',
    ...rows('status'),
  ].join('\n');
}

/** `page` with its generated region replaced by `block`; an error when the page has no such region. */
export function spliceRegion(page: string, block: string, path: string): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < start)
    throw new Error(`${path} has no generated region: it needs the lines\n${BEGIN}\n${END}`);
  return `${page.slice(0, start)}${BEGIN}\n\n${block}\n\n${page.slice(end)}`;
}

export interface GeneratedFile {
  /** Relative to the package root, with `/`. */
  readonly path: string;
  readonly content: string;
}

/** Every generated file as it should be, given the package root (the troubleshooting pages' prose is read from there). */
export function generatedDocs(root: string): GeneratedFile[] {
  const files: GeneratedFile[] = LANGUAGES.map((lang) => ({
    path: OPTIONS_DOC_PATHS[lang],
    content: renderOptionsReference(lang),
  }));
  for (const lang of LANGUAGES) {
    const path = TROUBLESHOOTING_PATHS[lang];
    files.push({
      path,
      content: spliceRegion(readFileSync(join(root, path), 'utf8'), renderFailureReasons(lang), path),
    });
  }
  return files;
}
