import { buildPlan, emptyDraft, FEATURE_STEPS } from '../../../lib/plan/build-plan';
import { masterRolePods, runtimePod, zetaMasterPods } from '../../../lib/plan/pod';
import { topologyStep } from '../../../lib/plan/steps/topology';
import { masterTopology } from '../../../lib/plan/topology';
import type { PlanDraft } from '../../../lib/plan/types';
import { spec } from '../../support/fixtures';

const HA = { haEnabled: true, haMasters: 3, haBackupCount: 1, checkpointPvc: 'ckpt' } as const;

/** The draft as the topology step finds it. */
const draftBefore = (s: ReturnType<typeof spec>): PlanDraft =>
  FEATURE_STEPS.slice(0, FEATURE_STEPS.indexOf(topologyStep)).reduce((d, step) => step.apply(d), emptyDraft(s));

describe('one local master', () => {
  test("the Job's Pod is the Zeta master's and the runtime's: one object, handed out once", () => {
    const t = masterTopology(spec());
    expect(t.zetaMasterPods).toHaveLength(1);
    expect(t.zetaMasterPods[0]).toBe(t.jobPod.spec);
    const d = emptyDraft(spec());
    expect(masterRolePods(d)).toEqual([runtimePod(d)]);
    expect(masterRolePods(d)[0]).toBe(runtimePod(d));
  });

  test('the topology step adds nothing', () => {
    const d = draftBefore(spec({ checkpointPvc: 'ckpt', masterNodeSelector: { pool: 'a' } }));
    const before = JSON.stringify(d);
    topologyStep.apply(d);
    expect(JSON.stringify(d)).toBe(before);
    expect(d.masters).toBeUndefined();
    expect(d.restService).toBeUndefined();
  });
});

describe('HA masters', () => {
  test("the Job's Pod runs the runtime; the Zeta masters have their own Pod", () => {
    const d = emptyDraft(spec(HA));
    expect(zetaMasterPods(d)).toHaveLength(1);
    expect(zetaMasterPods(d)[0]).not.toBe(runtimePod(d));
    expect(masterRolePods(d)).toEqual([runtimePod(d), zetaMasterPods(d)[0]]);
  });

  test("the topology step wraps the masters' Pod, as the steps left it, in the StatefulSet", () => {
    const d = draftBefore(spec(HA));
    const masters = zetaMasterPods(d)[0];
    topologyStep.apply(d);
    expect(d.masters!.spec!.template.spec).toBe(masters);
    expect(d.restService!.metadata.name).toBe(`${d.spec.appId}-rest`);
  });

  test('the same spec builds the same plan (a topology is built anew per plan, its Pods never shared)', () => {
    const s = spec(HA);
    const a = buildPlan(s);
    const b = buildPlan(s);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.masters!.spec!.template.spec).not.toBe(b.masters!.spec!.template.spec);
  });
});
