// The resolver takes every default, bound and allowed value from the option registry. These tests
// iterate the registry, so an option added there is covered without touching this file (and the
// compiler asks for its place in the resolved spec below).

import { isOptionDef, OPTIONS, type OptionDef } from '../../../lib/model/options';
import type { SeaTunnelApplicationProps } from '../../../lib/model/props';
import { resolveApplication } from '../../../lib/model/resolve';
import type { ApplicationSpec } from '../../../lib/model/spec';
import { JOB_CONFIG, problems } from '../../support/fixtures';
import { runtimeSettingsProblems } from '../../../lib/contract';
import { runtimeSettings } from '../../../lib/plan/runtime-settings';

type Props = Required<SeaTunnelApplicationProps>;
type PropName = keyof Props;

/** Options that only shape other values, or that are in the spec only when a switch is on (HA). */
const NOT_IN_SPEC = () => undefined;

/** Where each prop's resolved value lands in the spec, in the prop's own unit. */
const RESOLVED: { readonly [K in PropName]: (s: ApplicationSpec) => unknown } = {
  name: (s) => s.name,
  applicationId: (s) => s.appId,
  runId: NOT_IN_SPEC, // feeds the derived application ID
  jobId: (s) => s.jobId,
  restoreJobId: (s) => s.restoreJobId,
  workerCount: (s) => s.worker.count,
  workerSlots: (s) => s.worker.slots,
  workerCpuCores: (s) => s.worker.cpuMillicores / 1000,
  workerMemoryMb: (s) => s.worker.memoryMiB,
  workerPort: (s) => s.worker.port,
  masterCpuCores: (s) => s.master.cpuMillicores / 1000,
  masterMemoryMb: (s) => s.master.memoryMiB,
  masterPort: (s) => s.master.port,
  masterRestPort: (s) => s.master.restPort,
  startupTimeoutMillis: (s) => s.startupTimeoutMillis,
  scaleUpGraceMillis: (s) => s.scaleUpGraceMillis,
  imagePullRetryMillis: (s) => s.imagePullRetryMillis,
  workerJoinTimeoutMillis: (s) => s.workerJoinTimeoutMillis,
  apiOutageToleranceMillis: (s) => s.apiOutageToleranceMillis,
  nodeLossTolerationSeconds: (s) => s.nodeLossTolerationSeconds,
  // In the spec only with HA on: these resolve with HA_ON (see baseFor).
  haEnabled: (s) => s.ha !== undefined,
  haMasters: (s) => s.ha?.masters,
  haBackupCount: (s) => s.ha?.backupCount,
  haWorkerFailurePolicy: (s) => s.ha?.workerFailurePolicy,
  haWorkerReplacements: (s) => s.ha?.workerReplacements,
  haCoordinatorRestarts: (s) => s.ha?.coordinatorRestarts,
  metricsEnabled: (s) => s.metrics !== undefined,
  metricsPort: (s) => s.metrics?.port,
  namespace: (s) => s.namespace,
  image: (s) => s.image,
  imagePullPolicy: (s) => s.imagePullPolicy,
  imagePullSecrets: (s) => s.imagePullSecrets,
  serviceAccount: (s) => s.serviceAccount,
  seatunnelHome: (s) => s.seatunnelHome,
  classDataSharing: (s) => s.classDataSharing,
  configMaps: (s) => s.configMaps,
  secrets: (s) => s.secrets,
  secretRef: (s) => s.secretRef,
  env: (s) => s.env,
  envFrom: (s) => s.envFrom,
  masterEnv: (s) => s.master.env,
  workerEnv: (s) => s.worker.env,
  masterEnvFrom: (s) => s.master.envFrom,
  workerEnvFrom: (s) => s.worker.envFrom,
  jobConfig: (s) => (s.jobConfig.kind === 'inline' ? s.jobConfig.text : undefined),
  jobConfigFile: (s) => (s.jobConfig.kind === 'file' ? s.jobConfig.path : undefined),
  labels: (s) => s.labels,
  annotations: (s) => s.annotations,
  masterLabels: (s) => s.master.labels,
  workerLabels: (s) => s.worker.labels,
  masterAnnotations: (s) => s.master.annotations,
  workerAnnotations: (s) => s.worker.annotations,
  masterNodeSelector: (s) => s.master.nodeSelector,
  workerNodeSelector: (s) => s.worker.nodeSelector,
  masterTolerations: (s) => s.master.tolerations,
  workerTolerations: (s) => s.worker.tolerations,
  masterSpread: (s) => s.master.spread,
  workerSpread: (s) => s.worker.spread,
  masterSpreadTopology: (s) => s.master.spreadTopology,
  workerSpreadTopology: (s) => s.worker.spreadTopology,
  masterTopologySpreadConstraints: (s) => s.master.topologySpreadConstraints,
  workerTopologySpreadConstraints: (s) => s.worker.topologySpreadConstraints,
  checkpointPvc: (s) => s.checkpointPvc,
  runtimeConfigMap: (s) => s.runtimeConfigMap,
  finishedJobRetentionSeconds: (s) => s.finishedJobRetentionSeconds,
  kubeconfig: (s) => s.kubeconfig,
  runtimeFiles: (s) => s.runtimeFiles,
  rbacCreate: (s) => s.rbacCreate,
  networkPolicyEnabled: (s) => s.networkPolicyEnabled,
  metricsScraperNamespaceLabels: (s) => s.metrics?.scrapers?.namespaceLabels,
  metricsScraperPodLabels: (s) => s.metrics?.scrapers?.podLabels,
  metricsPodMonitor: (s) => s.metrics?.podMonitor !== undefined,
  metricsPodMonitorLabels: (s) => s.metrics?.podMonitor?.labels,
  podSecurity: (s) => s.podSecurity.level,
  runAsUser: (s) => s.podSecurity.runAsUser,
  admissionFence: (s) => s.admissionFence,
  runtimeMode: (s) => s.runtime.mode,
  runtimeImage: (s) => s.runtime.image,
  runtimeImagePullPolicy: (s) => s.runtime.imagePullPolicy,
};

/** What an option without a default value resolves to, by the registry's `unset` text. */
const UNSET: Readonly<Record<string, (value: unknown) => void>> = {
  generated: (v) => expect(v).toMatch(/^[1-9]\d*$/),
  'fresh start': (v) => expect(v).toBeUndefined(),
  'KUBECONFIG, then in-cluster': (v) => expect(v).toBeUndefined(),
  "the image's user": (v) => expect(v).toBeUndefined(),
  'all generated': (v) => expect(Object.values(v as object)).toEqual(Array(4).fill({ mode: 'generated' })),
  'generated: `<application-id>-runtime`': (v) => expect(v).toBe(`${resolved.appId}-runtime`),
};

const MINIMAL: SeaTunnelApplicationProps = { image: 'apache/seatunnel:2.3.12', jobConfig: JOB_CONFIG };
const resolved = resolveApplication(MINIMAL);
/** Options under the HA switch resolve with it on (and the storage HA needs). */
const HA_SWITCHED: ReadonlySet<string> = new Set([
  'haMasters',
  'haBackupCount',
  'haWorkerFailurePolicy',
  'haWorkerReplacements',
  'haCoordinatorRestarts',
]);
const baseFor = (prop: string): SeaTunnelApplicationProps =>
  HA_SWITCHED.has(prop) ? { ...MINIMAL, haEnabled: true, checkpointPvc: 'ckpt' } : MINIMAL;
/** Waits inside the startup budget must be shorter than it (checked in their own test below): bounds are checked with the longest budget. */
const WITHIN_STARTUP: ReadonlySet<string> = new Set([
  'scaleUpGraceMillis',
  'imagePullRetryMillis',
  'workerJoinTimeoutMillis',
]);
const boundsBase = (prop: string): SeaTunnelApplicationProps =>
  WITHIN_STARTUP.has(prop) ? { ...MINIMAL, startupTimeoutMillis: 86_400_000 } : MINIMAL;
const fileOptions = Object.entries(OPTIONS).filter(([, def]) => isOptionDef(def)) as Array<[PropName, OptionDef]>;

describe("a minimal configuration resolves every option to the registry's default", () => {
  test.each(fileOptions)('%s', (prop, def) => {
    const base = baseFor(prop);
    const baseResolved = base === MINIMAL ? resolved : resolveApplication(base);
    const value = RESOLVED[prop](baseResolved);
    if (def.default !== undefined) {
      if (RESOLVED[prop] !== NOT_IN_SPEC) expect(value).toEqual(def.default);
      // Setting an option to its default changes nothing.
      expect(resolveApplication({ ...base, [prop]: def.default })).toEqual(baseResolved);
    } else if (def.required) {
      expect(value).toEqual(MINIMAL[prop]);
    } else if (def.unset !== undefined) {
      expect(Object.keys(UNSET)).toContain(def.unset);
      UNSET[def.unset](value);
    } else {
      // "none": absent, or an empty list or map.
      expect([undefined, '[]', '{}']).toContain(value === undefined ? undefined : JSON.stringify(value));
    }
  });

  test('the HA defaults, with checkpoint storage, are a valid HA configuration', () => {
    const spec = resolveApplication({ ...MINIMAL, haEnabled: true, checkpointPvc: 'ckpt' });
    const dflt = (id: PropName) => {
      const def = OPTIONS[id];
      return isOptionDef(def) ? def.default : undefined;
    };
    expect(spec.ha).toEqual({
      masters: dflt('haMasters'),
      backupCount: dflt('haBackupCount'),
      workerFailurePolicy: dflt('haWorkerFailurePolicy'),
      workerReplacements: dflt('haWorkerReplacements'),
      coordinatorRestarts: dflt('haCoordinatorRestarts'),
    });
  });
});

const bounded = fileOptions.filter(([, def]) => def.min !== undefined || def.max !== undefined);
const step = (def: OptionDef) => (def.type === 'number' ? 0.001 : 1);

describe("the resolver enforces the registry's bounds", () => {
  test.each(bounded)('%s', (prop, def) => {
    // HA options' bounds are checked with HA off: with it on, the HA rules add their own limits.
    const inSpec = RESOLVED[prop] !== NOT_IN_SPEC && !HA_SWITCHED.has(prop);
    for (const edge of [def.min, def.max].filter((n): n is number => n !== undefined)) {
      const spec = resolveApplication({ ...boundsBase(prop), [prop]: edge });
      if (inSpec) expect(RESOLVED[prop](spec)).toEqual(edge);
    }
    const unit = def.unit ? ` ${def.unit}` : '';
    if (def.min !== undefined) {
      expect(problems(() => resolveApplication({ ...boundsBase(prop), [prop]: def.min! - step(def) }))).toEqual([
        `${prop}: must be between ${def.min} and ${def.max}${unit}`,
      ]);
    }
    if (def.max !== undefined) {
      const found = problems(() => resolveApplication({ ...boundsBase(prop), [prop]: def.max! + step(def) }));
      expect(found).toEqual([expect.stringMatching(new RegExp(`^${prop}: must be .*${def.max}${unit}$`))]);
    }
  });
});

test('a wait inside the startup budget must be shorter than it; a default one is shortened to fit', () => {
  expect(
    problems(() => resolveApplication({ ...MINIMAL, startupTimeoutMillis: 20_000, scaleUpGraceMillis: 20_000 })),
  ).toEqual([
    'scaleUpGraceMillis: must be less than startupTimeoutMillis (20000 ms): the wait happens inside the startup budget',
  ]);
  expect(
    problems(() => resolveApplication({ ...MINIMAL, startupTimeoutMillis: 20_000, imagePullRetryMillis: 30_000 })),
  ).toEqual([
    'imagePullRetryMillis: must be less than startupTimeoutMillis (20000 ms): the wait happens inside the startup budget',
  ]);
  const spec = resolveApplication({ ...MINIMAL, startupTimeoutMillis: 20_000 });
  expect([spec.scaleUpGraceMillis, spec.imagePullRetryMillis, spec.workerJoinTimeoutMillis]).toEqual([
    10_000, 10_000, 10_000,
  ]);
  // Not below an option's own minimum (runtime.json is checked against it): the shortest budget.
  const shortest = resolveApplication({ ...MINIMAL, startupTimeoutMillis: 5_000 });
  expect([shortest.scaleUpGraceMillis, shortest.workerJoinTimeoutMillis]).toEqual([2_500, 5_000]);
  expect(runtimeSettingsProblems(JSON.parse(JSON.stringify(runtimeSettings(shortest))))).toEqual([]);
});

const enums = fileOptions.filter(([, def]) => def.values !== undefined);

describe("the resolver accepts exactly the registry's allowed values", () => {
  test.each(enums)('%s', (prop, def) => {
    for (const value of def.values!)
      expect(RESOLVED[prop](resolveApplication({ ...baseFor(prop), [prop]: value }))).toBe(value);
    expect(problems(() => resolveApplication({ ...MINIMAL, [prop]: 'no-such-value' }))).toEqual([
      `${prop}: must be one of ${def.values!.join(', ')} (case-sensitive)`,
    ]);
  });
});

describe('provenance: "SeaTunnel (published)" only where the published material has the key', () => {
  // docs/seatunnel-application-mode.md §1 and §2.2 ("Src" P): the keys in the known part of the
  // published pages. Keys named only in published prose are 'published-name'; the rest 'pr-era' or 'ours'.
  const PUBLISHED = [
    'application.worker-count',
    'application.worker.slots',
    'kubernetes.namespace',
    'kubernetes.image',
    'kubernetes.image-pull-policy',
    'kubernetes.image-pull-secrets',
    'kubernetes.service-account',
    'kubernetes.seatunnel-home',
    'kubernetes.configmap.<entry>',
    'kubernetes.secret-ref',
  ];
  const PUBLISHED_NAME = [
    'kubernetes.secret.<entry>',
    'kubernetes.env.<NAME>',
    'kubernetes.env-from.<entry>',
    'kubernetes.job-config-file',
    'kubernetes.checkpoint-pvc',
    'kubernetes.finished-job-retention-seconds',
    'kubernetes.kubeconfig',
  ];
  const byOrigin = (o: string) => fileOptions.filter(([, d]) => d.origin === o).map(([, d]) => d.key);

  test('the published keys', () => expect(byOrigin('published').sort()).toEqual([...PUBLISHED].sort()));
  test('the keys published by name only, whose descriptions say where the details come from', () => {
    expect(byOrigin('published-name').sort()).toEqual([...PUBLISHED_NAME].sort());
    for (const [, d] of fileOptions.filter(([, def]) => def.origin === 'published-name'))
      expect(d.description).toMatch(/SeaTunnel( publishes|'s published pages name)/);
  });
  test('kubernetes.config-map is pre-release material (not in the known published table)', () => {
    expect(fileOptions.find(([, d]) => d.key === 'kubernetes.config-map')![1].origin).toBe('pr-era');
  });
});
