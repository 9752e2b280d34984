// props.ts repeats the registry's defaults as `@default` tags (for editors and generated API
// docs). This test reads the tags from the source and fails on any that disagree with the registry.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { DEFAULT_ROLES, isOptionDef, OPTIONS, type OptionDef } from '../../../lib/model/options';

const PROPS_FILE = join(__dirname, '..', '..', '..', 'lib', 'model', 'props.ts');

/** Each member of an interface in props.ts with its `@default` tag text (undefined when it has none). */
function defaultTags(interfaceName: string): Map<string, string | undefined> {
  const source = ts.createSourceFile(PROPS_FILE, readFileSync(PROPS_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const decl = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === interfaceName,
  );
  if (!decl) throw new Error(`props.ts has no interface ${interfaceName}`);
  const tags = new Map<string, string | undefined>();
  for (const member of decl.members) {
    if (!member.name || !ts.isIdentifier(member.name)) continue;
    const tag = ts.getJSDocTags(member).find((t) => t.tagName.text === 'default');
    tags.set(member.name.text, tag ? ts.getTextOfJSDocComment(tag.comment)?.trim() : undefined);
  }
  return tags;
}

/** A value as a `@default` tag writes it: TypeScript literal syntax. */
const literal = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(literal).join(', ')}]`
    : typeof value === 'string'
      ? `'${value}'`
      : String(value);

/** The tag the registry implies: its value, "none"/what happens when unset, or no tag for a required prop. */
function expectedTag(def: OptionDef): { exact: string } | { prose: string } | 'no tag' {
  if (def.default !== undefined) return { exact: literal(def.default) };
  if (def.required) return 'no tag';
  return { prose: `- ${def.unset ?? 'none'}` };
}

const tags = defaultTags('SeaTunnelApplicationProps');

test('props.ts declares exactly the props the registry defines', () => {
  expect([...tags.keys()].sort()).toEqual(Object.keys(OPTIONS).sort());
});

describe("every @default tag of SeaTunnelApplicationProps equals the registry's default", () => {
  test.each(Object.entries(OPTIONS).filter(([, def]) => isOptionDef(def)) as Array<[string, OptionDef]>)(
    '%s',
    (prop, def) => {
      const tag = tags.get(prop);
      const expected = expectedTag(def);
      if (expected === 'no tag') expect(tag).toBeUndefined();
      else if ('exact' in expected) expect(tag).toBe(expected.exact);
      // A prose default may explain itself after the registry's words.
      else expect(tag?.startsWith(expected.prose) ? expected.prose : tag).toBe(expected.prose);
    },
  );

  test('props-only fields say in prose what happens when they are not set', () => {
    for (const [prop, def] of Object.entries(OPTIONS)) {
      if (!isOptionDef(def)) expect(`${prop}: ${tags.get(prop)}`).toMatch(new RegExp(`^${prop}: - `));
    }
  });
});

test("the default roles of ConfigMap and Secret entries are the registry's", () => {
  const rolesTag = (iface: string, expected: string) =>
    (defaultTags(iface).get('roles') ?? '').slice(0, expected.length);
  expect(rolesTag('ConfigMapEntryProps', literal(DEFAULT_ROLES.configMaps))).toBe(literal(DEFAULT_ROLES.configMaps));
  expect(rolesTag('SecretEntryProps', literal(DEFAULT_ROLES.secrets))).toBe(literal(DEFAULT_ROLES.secrets));
});
