// preflight's judgement (lib/submit/admit/preflight-judge.ts) as a table: each row starts from the
// facts of a preflight that finds nothing, changes what one rule looks at, and states the problems
// and notes that rule makes of it — so a row fails when its rule breaks. The reads behind the facts
// are proven against a real API server (test/cluster/cli-preflight.test.ts).
import { KubeApiError } from '../../../lib/kube';
import { dependents } from '../../../lib/plan/build-plan';
import { stampWorkers } from '../../../lib/plan/stamp';
import type { ApplicationPlan, KubeObject } from '../../../lib/plan/types';
import { requiredAccess } from '../../../lib/submit/admit/permissions';
import {
  judgePreflight,
  type DryRunOutcome,
  type PreflightCheck,
  type PreflightFacts,
} from '../../../lib/submit/admit/preflight-judge';
import type { ResourceQuotaLike } from '../../../lib/submit/admit/quota';
import { plan } from '../../support/fixtures';

const p = plan({ workerCount: 3 });
const app = p.spec.appId;
const ns = p.spec.namespace;
const SERVER_NOTE = 'Kubernetes server v1.36.3: supported';
const NO_QUOTA = `no ResourceQuota in namespace ${ns}`;
const NO_LABEL = new RegExp(`^namespace ${ns} has no pod-security.kubernetes.io/enforce label .* pass it`);

const ran = (o: { kind: string; apiVersion: string }, label: string): DryRunOutcome => ({
  label,
  kind: o.kind,
  apiVersion: o.apiVersion,
});

/** What preflight reads for `of` when nothing is wrong (every dry run passes, every access allowed). */
function passing(of: ApplicationPlan): PreflightFacts {
  return {
    server: { server: 'v1.36.3', warnings: [], notes: [SERVER_NOTE] },
    objectRuns: [of.job, ...dependents(of)].map((o: KubeObject) =>
      ran(o, `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`),
    ),
    masterRun: ran({ kind: 'Pod', apiVersion: 'v1' }, `master Pod (from Job ${of.job.metadata.name})`),
    workerRuns: stampWorkers(of).map((w) => ran(w, `Pod ${w.metadata.name}`)),
    references: { problems: [], notices: [] },
    quotas: [],
    limitRanges: [],
    access: requiredAccess(of).map((a) => ({ ...a, allowed: true })),
    namespaceLabels: { labels: {} },
  };
}

const request = { method: 'POST', path: '/dry-run' };
const forbidden = (detail: string) => new KubeApiError(403, 'Forbidden', detail, request);
const PSA = (name: string) =>
  forbidden(`pods "${name}" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true`);

/** The run of `kind` (and name) refused with `error`. */
function refuse(runs: readonly DryRunOutcome[], label: RegExp, error: KubeApiError): DryRunOutcome[] {
  return runs.map((r) => (label.test(r.label) ? { ...r, error, name: r.label.replace(/^.*[/ ]/, '') } : r));
}
const refuseWorkers = (f: PreflightFacts, which: number[], error: (name: string) => KubeApiError) =>
  f.workerRuns.map((r, i) => {
    const name = r.label.replace(/^Pod /, '');
    return which.includes(i + 1) ? { ...r, error: error(name), name } : r;
  });
const deny = (f: PreflightFacts, verb: string, resource: string) =>
  f.access.map((a) => (a.verb === verb && a.resource === resource ? { ...a, allowed: false } : a));
const quota = (name: string, hard: Record<string, string>, extra: Partial<ResourceQuotaLike> = {}) => ({
  metadata: { name },
  spec: { hard },
  status: { hard, used: {} },
  ...extra,
});

type Expected = [PreflightCheck, string | RegExp, string | RegExp];
interface Row {
  readonly rule: string;
  readonly plan?: ApplicationPlan;
  readonly change: (f: PreflightFacts) => Partial<PreflightFacts>;
  readonly problems: readonly Expected[];
  /** Notes that must be there, and notes that must not. */
  readonly notes?: readonly (string | RegExp)[];
  readonly noNotes?: readonly (string | RegExp)[];
}

const withPodMonitor = plan({ workerCount: 3, metricsPodMonitor: true });
const UNSERVED =
  "kubernetes.metrics.pod-monitor: the cluster does not serve podmonitors.monitoring.coreos.com (monitoring.coreos.com/v1 PodMonitor); install the Prometheus operator's CRDs, or set kubernetes.metrics.pod-monitor = false";

const text = (t: string | RegExp) => (typeof t === 'string' ? t : expect.stringMatching(t));

const ROWS: Row[] = [
  {
    rule: 'nothing wrong: no problem; the notes are the server, Pod Security and quota lines, in that order',
    change: () => ({}),
    problems: [],
  },
  {
    rule: 'server-version: a refused server is a problem naming its version',
    change: (f) => ({ server: { ...f.server, refusal: 'Kubernetes server v1.23.17 is not supported' } }),
    problems: [['server-version', 'Kubernetes v1.36.3', 'Kubernetes server v1.23.17 is not supported']],
  },
  {
    rule: 'served-api: a kind the server does not serve is its one sentence; the 404 of its dry run is not repeated',
    plan: withPodMonitor,
    change: (f) => ({
      unserved: [{ kind: 'PodMonitor', apiVersion: 'monitoring.coreos.com/v1', message: UNSERVED }],
      objectRuns: refuse(
        f.objectRuns,
        /^PodMonitor /,
        new KubeApiError(404, 'NotFound', 'the server could not find the requested resource', request),
      ),
    }),
    problems: [['served-api', 'monitoring.coreos.com/v1 PodMonitor', UNSERVED]],
  },
  {
    rule: 'permission: each denied access, with the namespace and what needs it',
    change: (f) => ({ access: deny(f, 'create', 'networkpolicies') }),
    problems: [
      [
        'permission',
        'create networkpolicies.networking.k8s.io',
        `missing permission: create networkpolicies.networking.k8s.io in namespace ${ns} (submit: create the application's NetworkPolicies)`,
      ],
    ],
  },
  {
    rule: 'permission: the dry-run refusals a missing create permission explains are not repeated',
    change: (f) => ({
      access: deny(f, 'create', 'networkpolicies'),
      objectRuns: refuse(
        f.objectRuns,
        /^NetworkPolicy /,
        forbidden(`User "x" cannot create resource "networkpolicies" in API group "networking.k8s.io"`),
      ),
    }),
    problems: [['permission', 'create networkpolicies.networking.k8s.io', /^missing permission/]],
  },
  {
    rule: 'dry-run: a refusal of another cause is reported even where a create permission is missing',
    change: (f) => ({
      access: deny(f, 'create', 'networkpolicies'),
      objectRuns: refuse(f.objectRuns, new RegExp(`^NetworkPolicy .*-master$`), forbidden('denied by a webhook')),
    }),
    problems: [
      ['permission', 'create networkpolicies.networking.k8s.io', /^missing permission/],
      [
        'dry-run',
        `NetworkPolicy ${ns}/${app}-master`,
        `server-side dry run rejected the NetworkPolicy ${ns}/${app}-master: HTTP 403 Forbidden: denied by a webhook`,
      ],
    ],
  },
  {
    rule: 'dry-run: a refused object, by its label',
    change: (f) => ({
      objectRuns: refuse(f.objectRuns, /^ConfigMap /, new KubeApiError(422, 'Invalid', 'data: Too long', request)),
    }),
    problems: [
      ['dry-run', `ConfigMap ${ns}/${app}-engine`, /^server-side dry run rejected the ConfigMap .*: data: Too long$/],
    ],
  },
  {
    rule: 'dry-run: the master Pod refused for another reason than Pod Security',
    change: (f) => ({ masterRun: { ...f.masterRun, error: forbidden('exceeded quota: pods'), name: app } }),
    problems: [
      ['dry-run', `master Pod (from Job ${app})`, /rejected the master Pod \(from Job .*\): .*exceeded quota/],
    ],
  },
  {
    rule: 'dry-run: a RoleBinding to the plan’s own Role answered 404 is a note, not a problem',
    change: (f) => ({
      objectRuns: refuse(
        f.objectRuns,
        /^RoleBinding /,
        new KubeApiError(404, 'NotFound', `roles.rbac.authorization.k8s.io "${app}-runtime" not found`, request),
      ),
    }),
    problems: [],
    notes: [
      `RoleBinding ${ns}/${app}-runtime: not dry-run (its Role is created by submit first); covered by the Role's dry run`,
    ],
  },
  {
    rule: 'dry-run: the same RoleBinding refused otherwise (not 404) is a problem',
    change: (f) => ({ objectRuns: refuse(f.objectRuns, /^RoleBinding /, forbidden('cannot bind')) }),
    problems: [['dry-run', `RoleBinding ${ns}/${app}-runtime`, /cannot bind/]],
    noNotes: [/not dry-run/],
  },
  {
    rule: 'pod-security: Pod Security refusals of the master and the workers are one problem, no dry-run problem',
    change: (f) => ({
      masterRun: { ...f.masterRun, error: PSA(app), name: app },
      workerRuns: refuseWorkers(f, [1, 2, 3], PSA),
      namespaceLabels: { labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } },
    }),
    problems: [
      [
        'pod-security',
        `Namespace ${ns}`,
        new RegExp(`^namespace ${ns} enforces Pod Security "restricted" .* are refused by Pod Security admission`),
      ],
    ],
    noNotes: [NO_LABEL],
  },
  {
    rule: 'pod-security: Pods that pass are a note with the namespace’s level',
    change: () => ({ namespaceLabels: { labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } }),
    problems: [],
    notes: [new RegExp(`^namespace ${ns} enforces Pod Security "baseline" \\(version latest\\); .* pass it`)],
  },
  {
    rule: 'dry-run: workers refused alike are one problem, "N of M worker Pods"',
    change: (f) => ({ workerRuns: refuseWorkers(f, [1, 2, 3], (n) => forbidden(`pods "${n}" is forbidden: no`)) }),
    problems: [
      [
        'dry-run',
        `3 of 3 worker Pods (${app}-worker-1, ${app}-worker-2, ${app}-worker-3)`,
        /^server-side dry run rejected 3 of 3 worker Pods \(.*\): HTTP 403 Forbidden: pods ".*-worker-1" is forbidden: no$/,
      ],
    ],
  },
  {
    rule: 'dry-run: more than three workers alike name the first three',
    plan: plan({ workerCount: 5 }),
    change: (f) => ({ workerRuns: refuseWorkers(f, [1, 2, 4, 5], () => forbidden('no')) }),
    problems: [
      ['dry-run', /^4 of 5 worker Pods \(.*-worker-1, .*-worker-2, .*-worker-4, …\)$/, /rejected 4 of 5 worker Pods/],
    ],
  },
  {
    rule: 'dry-run: one refused worker keeps its own label',
    change: (f) => ({ workerRuns: refuseWorkers(f, [2], () => forbidden('no')) }),
    problems: [
      ['dry-run', `Pod ${app}-worker-2`, `server-side dry run rejected Pod ${app}-worker-2: HTTP 403 Forbidden: no`],
    ],
  },
  {
    rule: 'dry-run: workers refused differently are a problem each',
    change: (f) => ({
      workerRuns: refuseWorkers(f, [1, 3], (n) => forbidden(n.endsWith('1') ? 'first reason' : 'second reason')),
    }),
    problems: [
      ['dry-run', `Pod ${app}-worker-1`, /first reason$/],
      ['dry-run', `Pod ${app}-worker-3`, /second reason$/],
    ],
  },
  {
    rule: 'reference: each reference problem, by the object',
    change: () => ({
      references: {
        problems: [
          {
            ref: { apiVersion: 'v1', kind: 'Secret', namespace: ns, name: 'db' },
            option: 'kubernetes.env.DB_PASSWORD',
            message: `kubernetes.env.DB_PASSWORD: Secret db not found in namespace ${ns}`,
          },
        ],
        notices: [],
      },
    }),
    problems: [['reference', `Secret ${ns}/db`, `kubernetes.env.DB_PASSWORD: Secret db not found in namespace ${ns}`]],
  },
  {
    rule: 'quota: too little headroom for master + N workers; a quota present drops the no-quota note',
    change: () => ({ quotas: [quota('small', { pods: '3' })] }),
    problems: [
      [
        'quota',
        'ResourceQuota small',
        'ResourceQuota small: pods: the application needs 4 (master + 3 workers), but only 3 of 3 is free (0 used)',
      ],
    ],
    noNotes: [NO_QUOTA],
  },
  {
    rule: 'quota: a quota without recorded usage counts 0 used, and says so',
    change: () => ({ quotas: [{ metadata: { name: 'fresh' }, spec: { hard: { pods: '10' } } }] }),
    problems: [],
    notes: ['ResourceQuota fresh has no recorded usage yet (its controller has not synced); counted as 0 used'],
  },
  {
    rule: 'quota: the Pods are not terminating (no activeDeadlineSeconds), so a NotTerminating quota applies',
    change: () => ({
      quotas: [quota('nt', { pods: '1' }, { spec: { hard: { pods: '1' }, scopes: ['NotTerminating'] } })],
    }),
    problems: [['quota', 'ResourceQuota nt', /pods: the application needs 4/]],
  },
  {
    rule: 'quota: … and a Terminating quota does not',
    change: () => ({ quotas: [quota('t', { pods: '1' }, { spec: { hard: { pods: '1' }, scopes: ['Terminating'] } })] }),
    problems: [],
  },
  {
    rule: 'quota: with HA the footprint counts the coordinator, the masters and the workers',
    plan: plan({ workerCount: 1, haEnabled: true, haMasters: 2, haBackupCount: 1, checkpointPvc: 'ckpt' }),
    change: () => ({ quotas: [quota('small', { pods: '3' })] }),
    problems: [
      ['quota', 'ResourceQuota small', /pods: the application needs 4 \(coordinator \+ 2 masters \+ 1 worker\)/],
    ],
  },
  {
    rule: 'quota: counted after LimitRange defaulting (a default request, not a missing one)',
    change: () => ({
      limitRanges: [
        {
          metadata: { name: 'disk-defaults' },
          spec: { limits: [{ type: 'Container', defaultRequest: { 'ephemeral-storage': '1Gi' } }] },
        },
      ],
      quotas: [quota('disk', { 'requests.ephemeral-storage': '2Gi' })],
    }),
    problems: [
      [
        'quota',
        'ResourceQuota disk',
        'ResourceQuota disk: requests.ephemeral-storage: the application needs 4Gi (master 1Gi + 3 workers × 1Gi), but only 2Gi of 2Gi is free (0 used)',
      ],
    ],
    notes: [/^LimitRange disk-defaults fills in container defaults \(request ephemeral-storage 1Gi\); applied here: /],
  },
  {
    rule: 'limit-range: a container above the maximum, after defaulting; the defaults are a note',
    change: () => ({
      limitRanges: [
        {
          metadata: { name: 'caps' },
          spec: { limits: [{ type: 'Container', max: { memory: '512Mi' }, default: { cpu: '2' } }] },
        },
      ],
    }),
    problems: [
      // The init container is the main container's size (lib/plan/pod.ts initContainerResources).
      [
        'limit-range',
        'LimitRange caps',
        /^LimitRange caps: the master Pod's init container "install-runtime": memory limit 1Gi is above/,
      ],
      [
        'limit-range',
        'LimitRange caps',
        /^LimitRange caps: the master Pod's container "seatunnel": memory limit 1Gi is above/,
      ],
      ['limit-range', 'LimitRange caps', /^LimitRange caps: the worker Pod's container "seatunnel": memory limit/],
    ],
    notes: [/^LimitRange caps sets container defaults \(limit cpu 2\); none applies/],
  },
];

describe('preflight judgement, one rule a row', () => {
  test.each(ROWS.map((r) => [r.rule, r] as const))('%s', (_, row) => {
    const of = row.plan ?? p;
    const base = passing(of);
    const r = judgePreflight(of, { ...base, ...row.change(base) });
    expect(r.problems.map((x) => [x.check, x.object, x.message])).toEqual(
      row.problems.map(([check, object, message]) => [check, text(object), text(message)]),
    );
    expect(r.ok).toBe(row.problems.length === 0);
    for (const n of row.notes ?? []) expect(r.notes).toContainEqual(text(n));
    for (const n of row.noNotes ?? []) expect(r.notes).not.toContainEqual(text(n));
  });
});

describe('preflight judgement, the report', () => {
  test('notes: the server first, then Pod Security, then the quota line', () => {
    const r = judgePreflight(p, passing(p));
    expect(r.notes).toEqual([SERVER_NOTE, expect.stringMatching(NO_LABEL), NO_QUOTA]);
  });

  test('problems come in the order of the checks: server, permission, Pod Security, dry run, reference, quota, limit range', () => {
    const base = passing(p);
    const r = judgePreflight(p, {
      ...base,
      // Listed out of order on purpose: the report's order is the judge's, not the facts'.
      limitRanges: [{ metadata: { name: 'caps' }, spec: { limits: [{ type: 'Pod', max: { cpu: '100m' } }] } }],
      quotas: [quota('small', { pods: '1' })],
      references: {
        problems: [{ ref: { apiVersion: 'v1', kind: 'Secret', namespace: ns, name: 'db' }, option: 'o', message: 'm' }],
        notices: [],
      },
      objectRuns: refuse(base.objectRuns, /^Service /, forbidden('no')),
      masterRun: { ...base.masterRun, error: PSA(app), name: app },
      access: deny(base, 'list', 'events'),
      server: { ...base.server, refusal: 'too old' },
    });
    expect([...new Set(r.problems.map((x) => x.check))]).toEqual([
      'server-version',
      'permission',
      'pod-security',
      'dry-run',
      'reference',
      'quota',
      'limit-range',
    ]);
  });

  test('warnings are the references’ notices, not problems', () => {
    const base = passing(p);
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name: 'engine-files' };
    const notice = { ref, option: 'kubernetes.config-map', message: 'replaces a default' };
    const r = judgePreflight(p, {
      ...base,
      references: { problems: [], notices: [notice] },
      namespaceLabels: { labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } },
    });
    expect(r.warnings).toEqual(['replaces a default']);
    expect(r.ok).toBe(true);
  });

  test.each([
    ['no label', {}, true],
    ['privileged', { 'pod-security.kubernetes.io/enforce': 'privileged' }, true],
    ['baseline', { 'pod-security.kubernetes.io/enforce': 'baseline' }, false],
    ['restricted', { 'pod-security.kubernetes.io/enforce': 'restricted' }, false],
  ])(
    'a namespace that enforces %s: warned about when it enforces nothing (issue 27, item 6)',
    (_what, labels, warned) => {
      const r = judgePreflight(p, { ...passing(p), namespaceLabels: { labels } });
      const warning = r.warnings.find((w) => w.includes('enforces no Pod Security level'));
      expect(warning !== undefined).toBe(warned);
      if (warned) expect(warning).toMatch(/privileged Pod with the node's root filesystem.*enforce=baseline/);
      expect(r.ok).toBe(true);
    },
  );

  test('what was checked, and the footprint, are counted from the facts and the plan', () => {
    const base = passing(p);
    const r = judgePreflight(p, { ...base, quotas: [quota('a', { pods: '9' }), quota('b', { pods: '9' })] });
    expect(r).toMatchObject({ applicationId: app, namespace: ns, server: 'v1.36.3' });
    expect(r.checked).toEqual({
      dryRunObjects: 1 + dependents(p).length,
      dryRunPods: 4,
      resourceQuotas: 2,
      limitRanges: 0,
      permissions: requiredAccess(p).length,
      references: 0,
    });
    expect(r.footprint).toEqual({
      pods: 4,
      workers: 3,
      requests: { cpu: '4', memory: '4Gi' },
      limits: { cpu: '4', memory: '4Gi' },
    });
  });
});
