// Renders docs/options.md and docs/zh/options.md from the option registry (descriptions in Chinese
// from options-zh.ts). A unit test fails when a committed file differs, so neither reference can
// drift from the code.

import { bigintsAsText } from './issues';
import { FILE_OPTIONS, OPTIONS, isOptionDef, type OptionDef, type OptionOrigin } from './options';
import { OPTIONS_ZH, UNSET_ZH, type OptionId } from './options-zh';

export type DocLanguage = 'en' | 'zh';

/** Where each language's generated option reference lives, relative to the package root. */
export const OPTIONS_DOC_PATHS: Record<DocLanguage, string> = { en: 'docs/options.md', zh: 'docs/zh/options.md' };

const ORIGIN: Record<DocLanguage, Record<OptionOrigin, string>> = {
  en: {
    published: 'SeaTunnel (published)',
    'published-name': 'SeaTunnel (published name; details see description)',
    'pr-era': 'SeaTunnel (pre-release PR/STIP only)',
    ours: 'this project',
  },
  zh: {
    published: 'SeaTunnel（已发布）',
    'published-name': 'SeaTunnel（已发布名称；细节见说明）',
    'pr-era': 'SeaTunnel（仅发布前的 PR/STIP）',
    ours: '本项目',
  },
};

/** The fixed text of the page in each language. */
const TEXT = {
  en: {
    title: '# Deployment options',
    intro: [
      'English | [中文](zh/options.md)',
      '',
      'Every option can be set in the deployment file (`-a deploy.conf`, HOCON: nested blocks and dotted keys are',
      'equivalent, `${…}` substitutions allowed, environment variables as fallback), overridden with `-Dkey=value`',
      '(not for secrets), or given as the typed prop in TypeScript (cdk8s, Pulumi, team templates).',
      'Precedence: `--job-id` / `--restore-job-id` > `-D` > deployment file > team template > default.',
      '',
      'The "Defined by" column says where an option\'s key comes from. "SeaTunnel (published)": the key is in the',
      'known part of SeaTunnel\'s published documentation (3.1.0 / Next). "SeaTunnel (published name …)": the',
      "published pages name the key, but its table row is not known; type, default and syntax come from SeaTunnel's",
      'pre-release code or are ours, as the description says. "SeaTunnel (pre-release PR/STIP only)": the key is only in',
      "SeaTunnel's pre-release documentation or code (PR #12460, STIP-41), not in the known published material.",
      '"this project": our choice — an extension, or a name of ours for a capability SeaTunnel publishes without',
      'naming it (the description says which).',
    ],
    header: '| Key | Prop | Type | Default | Allowed | Defined by | Description |',
    required: '(required)',
    none: 'none',
    submitterOnly: ' *(submitter only)*',
    range: (min: number, max: number, unit: string) => `${min} to ${max}${unit}`,
    atLeast: (min: number, unit: string) => `at least ${min}${unit}`,
    atMost: (max: number, unit: string) => `at most ${max}${unit}`,
    propsOnlyTitle: '## Props without a deployment key',
    propsOnlyHeader: '| Prop | Description |',
    entryTitle: '## Entry syntax',
    entryNote:
      'An owned Secret is named `<application-id>-<entry>` unless `name` is set; reference it from `env` by that name.',
  },
  zh: {
    title: '# 部署配置项',
    intro: [
      '[English](../options.md) | 中文',
      '',
      '每个配置项都可以写在部署文件中（`-a deploy.conf`，HOCON 格式：嵌套块与点分键等价，支持 `${…}` 替换，',
      '并以环境变量作为兜底），也可以用 `-Dkey=value` 覆盖（不要用于敏感信息），或在 TypeScript 中以类型化的 prop',
      '给出（cdk8s、Pulumi、团队模板）。优先级：`--job-id` / `--restore-job-id` > `-D` > 部署文件 > 团队模板 > 默认值。',
      '',
      '“定义来源”一列说明配置项的键出自何处。“SeaTunnel（已发布）”：该键出现在 SeaTunnel 已发布文档（3.1.0 / Next）',
      '的已知部分中。“SeaTunnel（已发布名称 …）”：已发布的页面提到了该键，但其配置表行未知；类型、默认值和语法来自',
      'SeaTunnel 发布前的代码或由本项目决定，见说明。“SeaTunnel（仅发布前的 PR/STIP）”：该键只出现在 SeaTunnel',
      '发布前的文档或代码中（PR #12460、STIP-41），不在已知的已发布资料中。“本项目”：本项目的选择——扩展，',
      '或 SeaTunnel 只公开了能力而未给出名称时由本项目命名（见说明）。',
    ],
    header: '| 配置项 | Prop | 类型 | 默认值 | 取值范围 | 定义来源 | 说明 |',
    required: '（必填）',
    none: '无',
    submitterOnly: ' *（仅提交端使用）*',
    range: (min: number, max: number, unit: string) => `${min} 至 ${max}${unit}`,
    atLeast: (min: number, unit: string) => `至少 ${min}${unit}`,
    atMost: (max: number, unit: string) => `至多 ${max}${unit}`,
    propsOnlyTitle: '## 没有部署文件配置项的 Prop',
    propsOnlyHeader: '| Prop | 说明 |',
    entryTitle: '## 条目语法',
    entryNote: '应用拥有的 Secret 名为 `<application-id>-<entry>`（除非设置了 `name`）；在 `env` 中按该名称引用它。',
  },
} as const;

function unsetText(def: OptionDef, lang: DocLanguage): string {
  const unset = def.unset ?? TEXT[lang].none;
  if (lang === 'en' || def.unset === undefined) return lang === 'en' ? `(${unset})` : `（${unset}）`;
  const zh = UNSET_ZH[def.unset];
  if (zh === undefined)
    throw new Error(`${def.key}: unset "${def.unset}" has no Chinese text in lib/model/options-zh.ts UNSET_ZH`);
  return `（${zh}）`;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The default column: the registry's value, or what happens without one. */
export function describeDefault(def: OptionDef, lang: DocLanguage = 'en'): string {
  const d = def.default;
  if (d === undefined) return def.required ? TEXT[lang].required : unsetText(def, lang);
  return typeof d === 'string' || typeof d === 'number' || typeof d === 'bigint' || typeof d === 'boolean'
    ? String(d)
    : JSON.stringify(d, bigintsAsText);
}

/** The allowed-values column: an enum's values or a number's bounds. */
export function describeAllowed(def: OptionDef, lang: DocLanguage = 'en'): string {
  if (def.values) return def.values.map((v) => `\`${String(v)}\``).join(', ');
  const unit = def.unit ? ` ${def.unit}` : '';
  const t = TEXT[lang];
  if (def.min !== undefined && def.max !== undefined) return t.range(def.min, def.max, unit);
  if (def.min !== undefined) return t.atLeast(def.min, unit);
  if (def.max !== undefined) return t.atMost(def.max, unit);
  return '';
}

export function renderOptionsReference(lang: DocLanguage = 'en'): string {
  const t = TEXT[lang];
  const description = (prop: string, english: string) => (lang === 'en' ? english : OPTIONS_ZH[prop as OptionId]);
  const lines: string[] = [
    t.title,
    '',
    '<!-- Generated by `npm run docs` (`npx seatunnel-app docs --write`) from lib/model/options.ts and lib/model/options-zh.ts. Do not edit by hand. -->',
    '',
    ...t.intro,
    '',
  ];
  for (const section of ['application', 'kubernetes'] as const) {
    lines.push(`## \`${section}.*\``, '', t.header, '|---|---|---|---|---|---|---|');
    for (const [prop, def] of FILE_OPTIONS.filter(([, d]) => d.key.startsWith(`${section}.`))) {
      lines.push(
        `| \`${def.key}\` | \`${prop}\` | ${def.type} | ${cell(describeDefault(def, lang))} | ${cell(describeAllowed(def, lang))} | ${ORIGIN[lang][def.origin]} | ${cell(description(prop, def.description))}${def.submitterOnly ? t.submitterOnly : ''} |`,
      );
    }
    lines.push('');
  }
  lines.push(t.propsOnlyTitle, '', t.propsOnlyHeader, '|---|---|');
  for (const [prop, def] of Object.entries(OPTIONS)) {
    if (!isOptionDef(def)) lines.push(`| \`${prop}\` | ${cell(description(prop, def.propsOnly))} |`);
  }
  lines.push(
    '',
    t.entryTitle,
    '',
    '```hocon',
    'kubernetes {',
    '  configmap.drivers { ref = shared-jdbc, mounts { "mysql.properties" = "/opt/seatunnel/config/mysql.properties" } }',
    '  configmap.job     { data { "job.conf" = "…" }, mounts { "job.conf" = "/etc/seatunnel/job/job.conf" }, roles = [master] }',
    '  secret.db         { data { password = "s3cret" } }',
    '  env.DB_PASSWORD   { secret = ${kubernetes.secret.db.name-or-default}, key = password }   # or a literal string',
    '  env-from.common   { configmap = team-env, prefix = "TEAM_" }',
    '  worker.tolerations = "dedicated=seatunnel:NoSchedule"',
    '  master { spread = required, spread-topology = ["kubernetes.io/hostname", "topology.kubernetes.io/zone"] }',
    '  worker.topology-spread-constraints = [ { maxSkew = 1, topologyKey = "topology.kubernetes.io/zone", whenUnsatisfiable = ScheduleAnyway } ]',
    '  runtime-files.log4j2.enabled = false',
    '}',
    '```',
    '',
    t.entryNote,
    '',
  );
  return `${lines.join('\n')}`;
}
