// app.kubernetes.io/* on every object the plan emits and every Pod it makes, found by walking the
// synthesized objects (not by listing kinds), so a new object or Pod template without them fails here.

import { Testing } from 'cdk8s';
import { SeaTunnelApplication } from '../../../lib/cdk8s/application';
import { labelValueProblem } from '../../../lib/model/k8s-syntax';
import { LABELS, MANAGED_BY } from '../../../lib/model/reserved';
import { admissionFence } from '../../../lib/plan/admission-fence';
import { allObjects, buildPlan } from '../../../lib/plan/build-plan';
import { applicationNamespace } from '../../../lib/plan/namespace';
import { imageVersionLabel } from '../../../lib/plan/recommended-labels';
import { stampWorker } from '../../../lib/plan/stamp';
import { submitterRole } from '../../../lib/plan/submitter-rbac';
import type { ApplicationPlan } from '../../../lib/plan/types';
import { problems, props, spec } from '../../support/fixtures';

const RECOMMENDED = [
  LABELS.name,
  LABELS.instance,
  LABELS.version,
  LABELS.component,
  LABELS.partOf,
  LABELS.managedBy,
] as const;

const FILES = {
  configMaps: { settings: { data: { 'x.properties': 'a=1' }, mounts: { 'x.properties': '/etc/x.properties' } } },
  secrets: { db: { data: { password: 'p' }, mounts: { password: '/etc/db/password' } } },
};
const HA = { haEnabled: true, haMasters: 3, haBackupCount: 1, checkpointPvc: 'ckpt' } as const;

/** Applications that between them make every kind of object the plan has. */
const APPLICATIONS = {
  'one master, owned files, generated RBAC and policies': props({ ...FILES, name: 'Orders Sync', labels: { t: 'a' } }),
  'high availability, worker replacement': props({ ...FILES, ...HA, haWorkerFailurePolicy: 'replace' }),
  'an image by digest, no RBAC, no policies': props({
    image: 'registry.local:5000/seatunnel@sha256:' + 'ab'.repeat(32),
    rbacCreate: false,
    serviceAccount: 'runner',
    networkPolicyEnabled: false,
  }),
};

type Labels = Record<string, string> | undefined;
type Node = Record<string, unknown>;

/** Every metadata that labels a Pod-to-be inside `o`: any object with a spec that has containers. */
function podTemplates(o: unknown, at: string, out: Array<[string, Labels]> = []): Array<[string, Labels]> {
  if (Array.isArray(o)) o.forEach((x, i) => podTemplates(x, `${at}[${i}]`, out));
  else if (o && typeof o === 'object') {
    const node = o as Node;
    const spec = node.spec as Node | undefined;
    if (node.metadata && spec && Array.isArray(spec.containers))
      out.push([at, (node.metadata as { labels?: Record<string, string> }).labels]);
    for (const [k, v] of Object.entries(node)) if (k !== 'metadata') podTemplates(v, `${at}.${k}`, out);
  }
  return out;
}

/** Each object's own labels, each Pod template's inside it, and a stamped worker's. */
function everyLabelled(objects: readonly Node[], p: ApplicationPlan): Array<[string, Labels]> {
  const out: Array<[string, Labels]> = [];
  for (const o of objects) {
    const meta = o.metadata as { name: string; labels?: Record<string, string> };
    const where = `${String(o.kind)} ${meta.name}`;
    out.push([where, meta.labels]);
    if (o.kind !== 'Pod') podTemplates(o, where, out);
  }
  const worker = stampWorker({ template: p.workerTemplate, appId: p.spec.appId, namespace: p.spec.namespace }, 1);
  out.push([`stamped Pod ${worker.metadata.name}`, worker.metadata.labels]);
  return out;
}

describe('recommended labels on every object of an application', () => {
  test.each(Object.entries(APPLICATIONS))('%s', (_name, appProps) => {
    const p = buildPlan(spec(appProps));
    const objects = allObjects(p) as unknown as Node[];
    const labelled = everyLabelled(objects, p);
    // The walk found the Pods: the Job's, the worker template's, the stamped worker (and HA's masters).
    expect(labelled.filter(([w]) => w.includes('.template')).length).toBeGreaterThanOrEqual(p.masters ? 3 : 2);
    for (const [where, labels] of labelled) {
      for (const key of RECOMMENDED) {
        const value = labels?.[key];
        expect({ where, key, value, problem: value ? labelValueProblem(value) : 'missing' }).toEqual({
          where,
          key,
          value,
          problem: undefined,
        });
      }
      expect({ where, ...labels }).toMatchObject({
        where,
        [LABELS.name]: 'seatunnel',
        [LABELS.instance]: p.spec.appId,
        [LABELS.managedBy]: MANAGED_BY,
        [LABELS.version]: imageVersionLabel(p.spec.image),
        [LABELS.partOf]: p.spec.appId.replace(/-[0-9a-f]{12}$/, ''),
      });
    }
  });

  test('the cdk8s door emits nothing without them (every object of the synthesized chart)', () => {
    const chart = Testing.chart();
    const app = new SeaTunnelApplication(chart, 'ha', APPLICATIONS['high availability, worker replacement']);
    const out = Testing.synth(chart) as Node[];
    expect(out.length).toBe(allObjects(app.plan).length);
    for (const [where, labels] of everyLabelled(out, app.plan))
      for (const key of RECOMMENDED)
        expect({ where, key, set: labels?.[key] !== undefined }).toEqual({ where, key, set: true });
  });

  test('part-of names the job across runs: every run of one job has the same, each its own instance', () => {
    const runs = ['a', 'b'].map((runId) => spec({ name: 'Orders Sync', runId }));
    const labels = runs.map((s) => buildPlan(s).job.metadata.labels!);
    expect(labels.map((l) => l[LABELS.partOf])).toEqual(['orders-sync', 'orders-sync']);
    expect(new Set(labels.map((l) => l[LABELS.instance])).size).toBe(2);
  });

  test('kubernetes.labels may replace part-of and version, on every object alike; a role may not', () => {
    const p = buildPlan(spec({ labels: { [LABELS.partOf]: 'billing', [LABELS.version]: '2.3.8-patched' } }));
    for (const [where, labels] of everyLabelled(allObjects(p) as unknown as Node[], p))
      expect({ where, partOf: labels?.[LABELS.partOf], version: labels?.[LABELS.version] }).toEqual({
        where,
        partOf: 'billing',
        version: '2.3.8-patched',
      });
    expect(problems(() => spec({ workerLabels: { [LABELS.version]: 'x' } }))).toEqual([
      expect.stringMatching(/^workerLabels\.app\.kubernetes\.io\/version: .*set it in kubernetes\.labels/),
    ]);
    expect(problems(() => spec({ masterLabels: { [LABELS.partOf]: 'x' } }))).toHaveLength(1);
    expect(problems(() => spec({ labels: { [LABELS.instance]: 'x' } }))).toEqual([expect.stringMatching(/reserved/)]);
    expect(problems(() => spec({ labels: { [LABELS.version]: 'not valid!' } }))).toEqual([
      expect.stringMatching(/label value must consist of/),
    ]);
  });

  test('selectors stay on the application-id and role labels (immutable on StatefulSets, security on policies)', () => {
    const p = buildPlan(spec({ ...FILES, ...HA }));
    const keys = new Set<string>();
    const walk = (o: unknown): void => {
      if (Array.isArray(o)) o.forEach(walk);
      else if (o && typeof o === 'object')
        for (const [k, v] of Object.entries(o as Node)) {
          if (/^(selector|podSelector|labelSelector)$/.test(k) && v && typeof v === 'object') {
            const sel = v as { matchLabels?: Node };
            Object.keys(sel.matchLabels ?? sel).forEach((key) => keys.add(key));
          }
          walk(v);
        }
    };
    walk(allObjects(p));
    expect([...keys].filter((k) => k !== 'matchExpressions').sort()).toEqual(
      [LABELS.applicationId, LABELS.role].sort(),
    );
  });
});

describe('objects that belong to no one application', () => {
  test('namespace, submitter Role and admission fence: name, component, managed-by; no instance or version', () => {
    const shared = [applicationNamespace('jobs'), submitterRole('jobs'), ...admissionFence()];
    for (const o of shared) {
      const labels = o.metadata?.labels ?? {};
      expect({ kind: o.kind, ...labels }).toMatchObject({
        kind: o.kind,
        [LABELS.name]: 'seatunnel',
        [LABELS.component]: expect.stringMatching(/^(namespace|submitter|admission-fence)$/),
        [LABELS.managedBy]: MANAGED_BY,
      });
      expect([labels[LABELS.instance], labels[LABELS.version]]).toEqual([undefined, undefined]);
    }
  });
});

describe('imageVersionLabel', () => {
  test.each([
    ['apache/seatunnel:2.3.8', '2.3.8'],
    ['registry.local:5000/seatunnel', 'latest'],
    ['registry.local:5000/seatunnel:2.3.8-jdk11', '2.3.8-jdk11'],
    [`seatunnel:2.3.8@sha256:${'0123456789'.repeat(6)}abcd`, '2.3.8'],
    [`seatunnel@sha256:${'0123456789'.repeat(6)}abcd`, 'sha256-012345678901'],
    ['seatunnel:_dev_', 'dev'],
    [`seatunnel:${'v'.repeat(62)}.-x`, `${'v'.repeat(62)}`],
  ])('%s → %s', (image, version) => {
    expect(imageVersionLabel(image)).toBe(version);
    expect(labelValueProblem(version)).toBeUndefined();
  });
});
