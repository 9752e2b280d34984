// The spread in the plan (lib/plan/spread.ts): what each option value puts on the HA masters'
// StatefulSet and on the worker template, that the selector counts exactly the application's Pods
// of the role, that the coordinator and the lone master get nothing, and that stamped workers carry it.

import type { PodSpec } from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import type { SeaTunnelApplicationProps } from '../../../lib/model/props';
import { PREFERRED_SPREAD_WEIGHT, spreadPod } from '../../../lib/plan/spread';
import { stampWorkers } from '../../../lib/plan/stamp';
import type { ApplicationPlan } from '../../../lib/plan/types';
import { plan, spec } from '../../support/fixtures';
import { masterPod, workerPod } from './helpers';

const HA = { haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' } as const;
const HOST = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';

const mastersPod = (p: ApplicationPlan): PodSpec => p.masters!.spec!.template.spec!;
const mastersLabels = (p: ApplicationPlan) => p.masters!.spec!.template.metadata!.labels!;
const selectorOf = (p: ApplicationPlan, role: 'master' | 'worker'): LabelSelector => ({
  matchLabels: { 'seatunnel.apache.org/application-id': p.spec.appId, 'seatunnel.apache.org/role': role },
});
/** matchLabels only: the plan's own selectors use nothing else. */
const selects = (s: LabelSelector, labels: Record<string, string> | undefined) =>
  Object.entries(s.matchLabels ?? {}).every(([k, v]) => labels?.[k] === v);

describe('the HA masters', () => {
  test('by default: preferred anti-affinity among the masters over nodes, weight 100', () => {
    const p = plan(HA);
    expect(mastersPod(p).affinity).toEqual({
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: PREFERRED_SPREAD_WEIGHT,
            podAffinityTerm: { labelSelector: selectorOf(p, 'master'), topologyKey: HOST },
          },
        ],
      },
    });
    expect(PREFERRED_SPREAD_WEIGHT).toBe(100);
    expect(mastersPod(p).topologySpreadConstraints).toBeUndefined();
  });

  test('required: one hard term per topology key', () => {
    const p = plan({ ...HA, masterSpread: 'required', masterSpreadTopology: [HOST, ZONE] });
    expect(mastersPod(p).affinity).toEqual({
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: selectorOf(p, 'master'), topologyKey: HOST },
          { labelSelector: selectorOf(p, 'master'), topologyKey: ZONE },
        ],
      },
    });
  });

  test('none: no affinity', () => {
    expect(mastersPod(plan({ ...HA, masterSpread: 'none' })).affinity).toBeUndefined();
  });

  test('the selector counts exactly this application’s masters: not the coordinator, the workers or another application', () => {
    const p = plan(HA);
    const other = plan({ ...HA, name: 'payments' });
    const term =
      mastersPod(p).affinity!.podAntiAffinity!.preferredDuringSchedulingIgnoredDuringExecution![0].podAffinityTerm;
    expect(selects(term.labelSelector!, mastersLabels(p))).toBe(true);
    expect(selects(term.labelSelector!, p.job.spec!.template.metadata!.labels)).toBe(false);
    expect(selects(term.labelSelector!, p.workerTemplate.template!.metadata!.labels)).toBe(false);
    expect(selects(term.labelSelector!, mastersLabels(other))).toBe(false);
  });

  test('the coordinator (the Job’s Pod) and the workers get no master spread; node selectors still reach the masters', () => {
    const p = plan({
      ...HA,
      masterSpread: 'required',
      masterNodeSelector: { pool: 'control' },
      masterTopologySpreadConstraints: [{ maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule' }],
    });
    expect(masterPod(p).affinity).toBeUndefined();
    expect(masterPod(p).topologySpreadConstraints).toBeUndefined();
    expect(workerPod(p).affinity).toBeUndefined();
    expect(mastersPod(p).nodeSelector).toEqual({ pool: 'control' });
  });

  test('topology spread constraints: passed through, counting the masters unless they name a selector', () => {
    const p = plan({
      ...HA,
      masterTopologySpreadConstraints: [
        { maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule', minDomains: 3 },
        {
          maxSkew: 2,
          topologyKey: HOST,
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: { 'app.kubernetes.io/component': 'master' } },
          nodeTaintsPolicy: 'Honor',
        },
      ],
    });
    expect(mastersPod(p).topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: ZONE,
        whenUnsatisfiable: 'DoNotSchedule',
        minDomains: 3,
        labelSelector: selectorOf(p, 'master'),
      },
      {
        maxSkew: 2,
        topologyKey: HOST,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { 'app.kubernetes.io/component': 'master' } },
        nodeTaintsPolicy: 'Honor',
      },
    ]);
  });
});

describe('without HA', () => {
  test('the lone master gets neither the spread nor the constraints, whatever they say', () => {
    const p = plan({
      masterSpread: 'required',
      masterTopologySpreadConstraints: [{ maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule' }],
    });
    expect(masterPod(p).affinity).toBeUndefined();
    expect(masterPod(p).topologySpreadConstraints).toBeUndefined();
  });
});

describe('the workers', () => {
  test('by default: nothing', () => {
    expect(workerPod(plan()).affinity).toBeUndefined();
    expect(workerPod(plan()).topologySpreadConstraints).toBeUndefined();
  });

  test.each<[SeaTunnelApplicationProps['workerSpread'], string]>([
    ['preferred', 'preferredDuringSchedulingIgnoredDuringExecution'],
    ['required', 'requiredDuringSchedulingIgnoredDuringExecution'],
  ])('%s: anti-affinity among the workers, on the template and on every stamped worker', (mode, field) => {
    const p = plan({ workerSpread: mode, workerCount: 3, workerSpreadTopology: [ZONE] });
    const anti = workerPod(p).affinity!.podAntiAffinity as Record<string, unknown[]>;
    expect(Object.keys(anti)).toEqual([field]);
    const term = (
      mode === 'required' ? anti[field][0] : (anti[field][0] as { podAffinityTerm: unknown }).podAffinityTerm
    ) as {
      labelSelector: LabelSelector;
      topologyKey: string;
    };
    expect(term).toEqual({ labelSelector: selectorOf(p, 'worker'), topologyKey: ZONE });
    const stamped = stampWorkers(p);
    for (const w of stamped) {
      expect(w.spec!.affinity).toEqual(workerPod(p).affinity);
      expect(selects(term.labelSelector, w.metadata.labels)).toBe(true);
    }
    expect(selects(term.labelSelector, p.job.spec!.template.metadata!.labels)).toBe(false);
    expect(masterPod(p).affinity).toBeUndefined();
  });

  test('topology spread constraints reach the template; without a selector they count the workers', () => {
    const p = plan({
      workerTopologySpreadConstraints: [{ maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule' }],
    });
    expect(workerPod(p).topologySpreadConstraints).toEqual([
      { maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule', labelSelector: selectorOf(p, 'worker') },
    ]);
    expect(workerPod(p).affinity).toBeUndefined();
  });
});

test('spreadPod keeps the affinity terms and constraints a Pod already has', () => {
  const s = spec({
    workerSpread: 'required',
    workerTopologySpreadConstraints: [{ maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule' }],
  });
  const theirs = { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: HOST };
  const pod: PodSpec = {
    containers: [],
    affinity: {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [theirs],
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, podAffinityTerm: theirs }],
      },
    },
    topologySpreadConstraints: [{ maxSkew: 3, topologyKey: HOST, whenUnsatisfiable: 'ScheduleAnyway' }],
  };
  spreadPod(pod, s, 'worker');
  expect(pod.affinity!.nodeAffinity).toBeDefined();
  expect(pod.affinity!.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution).toHaveLength(2);
  expect(pod.affinity!.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution![0]).toBe(theirs);
  expect(pod.affinity!.podAntiAffinity!.preferredDuringSchedulingIgnoredDuringExecution).toHaveLength(1);
  expect(pod.topologySpreadConstraints!.map((c) => c.topologyKey)).toEqual([HOST, ZONE]);
});
