import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatedDocs, LANGUAGES } from '../../../lib/docs/generated';
import { renderOptionsReference } from '../../../lib/model/options-doc';
import { FILE_OPTIONS, OPTIONS } from '../../../lib/model/options';
import { OPTIONS_ZH } from '../../../lib/model/options-zh';

const root = join(__dirname, '..', '..', '..');

test.each(generatedDocs(root).map((f) => [f.path, f.content]))(
  '%s is generated and up to date (npm run docs)',
  (path, content) => {
    expect(readFileSync(join(root, path), 'utf8')).toBe(content);
  },
);

test.each(LANGUAGES)('every deployment option is documented in %s', (lang) => {
  const doc = renderOptionsReference(lang);
  for (const [prop, def] of FILE_OPTIONS) {
    expect(doc).toContain(`| \`${def.key}\` | \`${prop}\``);
    expect(def.description.length).toBeGreaterThan(10);
  }
});

test('every option has a Chinese description that is not the English one', () => {
  for (const [prop, def] of Object.entries(OPTIONS)) {
    const zh = OPTIONS_ZH[prop as keyof typeof OPTIONS_ZH];
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
    expect(zh).not.toBe('description' in def ? def.description : def.propsOnly);
  }
});
