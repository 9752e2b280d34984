// Every relative link in every Markdown file of the repository leads somewhere: the file or
// directory exists, and an `#anchor` names a heading (as GitHub computes heading anchors, Chinese
// headings included) or an explicit `<a id>` of the target page.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { prose } from './markdown';

const root = join(__dirname, '..', '..', '..');
const SKIP_DIRS = new Set(['node_modules', 'build', 'dist', 'coverage']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name.startsWith('.') || SKIP_DIRS.has(e.name) ? [] : markdownFiles(join(dir, e.name));
    return e.name.endsWith('.md') ? [join(dir, e.name)] : [];
  });
}

/**
 * GitHub's heading anchor (github-slugger): the heading's text as rendered, lower-cased, without
 * punctuation (anything but letters, marks, numbers, connector punctuation, spaces and hyphens),
 * spaces to hyphens; a repeated anchor gets `-1`, `-2`, ….
 */
function githubAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of prose(markdown)) {
    const explicit = line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g);
    for (const m of explicit) anchors.add(m[1]);
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const text = h[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link renders as its text
      .replace(/<[^>]+>/g, '') // inline HTML
      .replace(/[`*]/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

function links(file: string): Link[] {
  const out: Link[] = [];
  prose(readFileSync(file, 'utf8')).forEach((raw, i) => {
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      out.push({ file, line: i + 1, target: m[1] });
    const def = /^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/.exec(line);
    if (def) out.push({ file, line: i + 1, target: def[1] });
    for (const m of line.matchAll(/<a\s[^>]*href="([^"]+)"/g)) out.push({ file, line: i + 1, target: m[1] });
  });
  return out;
}

const isExternal = (t: string) => /^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith('//');

/** Why the link is broken, or undefined. */
function problem(link: Link, anchorsOf: (file: string) => Set<string>): string | undefined {
  const [pathPart, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const target = pathPart ? resolve(dirname(link.file), decodeURIComponent(pathPart)) : link.file;
  if (pathPart && !existsSync(target)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md'))
    return 'an anchor into something that is not a Markdown file';
  return anchorsOf(target).has(decodeURIComponent(anchor)) ? undefined : `no heading or <a id> for #${anchor}`;
}

test('GitHub anchors: punctuation dropped, Chinese kept, repeats numbered', () => {
  const a = githubAnchors(
    '# The `runtime` (in the master Pod)\n## 快速开始：从零到完成的作业\n## FAQ\n## FAQ\n```\n# not a heading\n```\n',
  );
  expect([...a]).toEqual(['the-runtime-in-the-master-pod', '快速开始从零到完成的作业', 'faq', 'faq-1']);
});

test('every relative link in every Markdown file resolves, anchors included', () => {
  const files = markdownFiles(root);
  expect(files.map((f) => relative(root, f))).toEqual(
    expect.arrayContaining(['README.md', 'README.zh-CN.md', 'docs/zh/quick-start.md']),
  );
  const cache = new Map<string, Set<string>>();
  const anchorsOf = (f: string) => cache.get(f) ?? cache.set(f, githubAnchors(readFileSync(f, 'utf8'))).get(f)!;
  const broken = files
    .flatMap(links)
    .filter((l) => !isExternal(l.target))
    .map((l) => ({ l, why: problem(l, anchorsOf) }))
    .filter((x) => x.why)
    .map(({ l, why }) => `${relative(root, l.file)}:${l.line}: ${l.target}: ${why}`);
  expect(broken).toEqual([]);
});
