// The submitter Role and preflight's access reviews come from one list (lib/plan/submitter-access.ts):
// whatever preflight asks of any application, the documented Role grants — the HA `preflight` of
// issue 28 item 8 failed with exit 4 on `deletecollection statefulsets`, which the Role never had
// because cancel deletes the StatefulSet by name. The README's Role tables (en, zh) list the same verbs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PolicyRule } from 'kubernetes-types/rbac/v1';
import { dependents } from '../../../lib/plan/build-plan';
import { FENCE_MARK_GROUP } from '../../../lib/plan/fence-cel';
import { ALL_DEPENDENT_KINDS, REMOVAL } from '../../../lib/plan/submitter-access';
import { submitterRules } from '../../../lib/plan/submitter-rbac';
import { OWNED_KINDS } from '../../../lib/submit/act/cancel';
import { qualified, requiredAccess } from '../../../lib/submit/admit/permissions';
import { plan } from '../../support/fixtures';
import { documentedSubmitter } from '../../support/quick-start-page';

const grants = (
  rules: readonly PolicyRule[],
  a: { verb: string; group: string; resource: string; subresource?: string },
) =>
  rules.some(
    (r) =>
      !r.resourceNames &&
      r.apiGroups!.includes(a.group) &&
      r.resources!.includes(a.subresource ? `${a.resource}/${a.subresource}` : a.resource) &&
      r.verbs.includes(a.verb),
  );

const denied = (rules: readonly PolicyRule[], p: ReturnType<typeof plan>) =>
  requiredAccess(p)
    .filter((a) => !grants(rules, a))
    .map((a) => `${a.verb} ${qualified(a)}`);

const PRE = { rbacCreate: false, serviceAccount: 'runner' } as const;

describe('preflight asks for nothing the documented submitter Role lacks', () => {
  const cases: Array<[string, ReturnType<typeof plan>]> = [
    ['the default application', plan()],
    [
      'HA with a checkpoint claim, referenced and owned data',
      plan({
        haEnabled: true,
        haMasters: 3,
        haBackupCount: 1,
        checkpointPvc: 'ckpt',
        secrets: { db: { data: { k: 'v' } } },
        imagePullSecrets: ['pull'],
      }),
    ],
    ['a named ServiceAccount', plan({ serviceAccount: 'runner' })],
  ];
  test.each(cases)('%s', (_, p) => {
    expect(denied(submitterRules(), p)).toEqual([]);
  });

  test('pre-provisioned (rbac.create=false, a named ServiceAccount): the narrower Role suffices', () => {
    for (const p of [
      plan({ rbacCreate: false, serviceAccount: 'runner' }),
      plan({ rbacCreate: false, serviceAccount: 'runner', haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' }),
    ])
      expect(denied(submitterRules({ preProvisioned: true }), p)).toEqual([]);
  });

  test('every command is covered: list reads Jobs, logs reads pods/log and watches Pods, cancel deletes by label', () => {
    const needs = requiredAccess(plan()).map((a) => `${a.verb} ${qualified(a)}`);
    expect(needs).toEqual(
      expect.arrayContaining([
        'list jobs.batch',
        'get pods/log',
        'watch pods',
        'deletecollection pods',
        'patch jobs.batch',
        'list events',
      ]),
    );
  });

  test('the HA StatefulSet and the Services are removed by name: get and delete, never deletecollection', () => {
    const ha = requiredAccess(plan({ haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' }));
    const on = (resource: string) => ha.filter((a) => a.resource === resource).map((a) => a.verb);
    expect(on('statefulsets').sort()).toEqual(['create', 'delete', 'get']);
    expect(on('services')).not.toContain('deletecollection');
  });

  test('a PodMonitor needs create, get and delete on podmonitors: granted only when asked for', () => {
    const p = plan({ metricsPodMonitor: true });
    const onPodMonitors = (rules: readonly PolicyRule[]) =>
      rules.filter((r) => r.resources!.includes('podmonitors')).map((r) => [r.apiGroups, [...r.verbs].sort()]);
    expect(denied(submitterRules(), p)).toEqual([
      'create podmonitors.monitoring.coreos.com',
      'get podmonitors.monitoring.coreos.com',
      'delete podmonitors.monitoring.coreos.com',
    ]);
    expect(onPodMonitors(submitterRules())).toEqual([]);
    expect(denied(submitterRules({ podMonitors: true }), p)).toEqual([]);
    expect(onPodMonitors(submitterRules({ podMonitors: true }))).toEqual([
      [['monitoring.coreos.com'], ['create', 'delete', 'get']],
    ]);
    expect(
      denied(submitterRules({ podMonitors: true, preProvisioned: true }), plan({ ...PRE, metricsPodMonitor: true })),
    ).toEqual([]);
    // An application without one asks nothing of podmonitors.
    expect(requiredAccess(plan()).filter((a) => a.resource === 'podmonitors')).toEqual([]);
  });

  test("the runtime Role's own rules are required (RBAC escalation check), marks included", () => {
    const needs = requiredAccess(plan()).map((a) => `${a.verb} ${qualified(a)}`);
    expect(needs).toEqual(expect.arrayContaining(['watch jobs.batch', `fenced subjects.${FENCE_MARK_GROUP}`]));
  });
});

describe('how cancel removes each kind', () => {
  test('every kind of dependent (HA, RBAC, data) has a removal', () => {
    const kinds = dependents(
      plan({
        haEnabled: true,
        haMasters: 3,
        checkpointPvc: 'ckpt',
        secrets: { s: { data: { k: 'v' } } },
        metricsPodMonitor: true,
      }),
    ).map((d) => d.kind);
    expect(kinds).toContain('PodMonitor');
    for (const kind of kinds) expect(ALL_DEPENDENT_KINDS).toContain(kind);
  });

  test('cancel deletes by label exactly the kinds the table says', () => {
    expect(OWNED_KINDS.map((k) => k.kind).sort()).toEqual(
      ALL_DEPENDENT_KINDS.filter((k) => REMOVAL[k] === 'label').sort(),
    );
  });
});

describe("the README's submitter Role tables", () => {
  /** resource (group-qualified for the fence marks) → verbs, from the rules. */
  function fromRules(rules: readonly PolicyRule[]): Map<string, string[]> {
    const m = new Map<string, string[]>();
    for (const r of rules)
      for (const res of r.resources!) {
        const key = r.apiGroups![0] === FENCE_MARK_GROUP ? `${FENCE_MARK_GROUP}:${res}` : res;
        m.set(key, [...(m.get(key) ?? []), ...r.verbs].sort());
      }
    return m;
  }

  /** The table under the heading cell `header`: first cell the resources, second the verbs (asides in parentheses dropped). */
  function fromTable(page: string, header: string): Map<string, string[]> {
    const lines = page.split('\n');
    const start = lines.findIndex((l) => l.startsWith(`| ${header} |`));
    expect(start).toBeGreaterThanOrEqual(0);
    const m = new Map<string, string[]>();
    for (const line of lines.slice(start + 2)) {
      if (!line.startsWith('|')) break;
      const [, first, second] = line.split(/(?<!\\)\|/).map((c) => c.trim());
      const fence = first.match(/^`([^`]+)`[:：]\s*(.*)$/);
      const group = fence && fence[1] === FENCE_MARK_GROUP ? `${FENCE_MARK_GROUP}:` : '';
      const resources = [...(group ? fence![2] : first).matchAll(/`([^`]+)`/g)].map((x) => `${group}${x[1]}`);
      const verbs = second
        .split(/\s+—|——/)[0]
        .replace(/\([^)]*\)|（[^）]*）/g, '')
        .split(/[,、]/)
        .map((v) => v.trim())
        .filter(Boolean)
        .sort();
      for (const r of resources) m.set(r, verbs);
    }
    return m;
  }

  test.each([
    ['README.md', 'Submitter Role'],
    ['README.zh-CN.md', '提交者 Role'],
  ])('%s lists exactly submitterRules()', (file, header) => {
    const page = readFileSync(join(__dirname, '../../..', file), 'utf8');
    expect(Object.fromEntries(fromTable(page, header))).toEqual(Object.fromEntries(fromRules(submitterRules())));
  });
});

test("docs/quick-start.md's snippet prints exactly submitterRules(), as the Role the cluster tier grants (test/cluster/quick-start-submitter.test.ts)", () => {
  const { role, binding } = documentedSubmitter();
  expect(role.rules).toEqual(submitterRules());
  expect(binding.role).toBe(role.metadata!.name);
});
