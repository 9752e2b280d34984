import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderOptionsReference } from '../../../lib/model/options-doc';
import { FILE_OPTIONS } from '../../../lib/model/options';

test('docs/options.md is generated from the model and up to date (npx seatunnel-app docs --write)', () => {
  const committed = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'options.md'), 'utf8');
  expect(committed).toBe(renderOptionsReference());
});

test('every deployment option is documented', () => {
  const doc = renderOptionsReference();
  for (const [prop, def] of FILE_OPTIONS) {
    expect(doc).toContain(`| \`${def.key}\` | \`${prop}\``);
    expect(def.description.length).toBeGreaterThan(10);
  }
});
