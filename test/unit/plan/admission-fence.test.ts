import {
  ADMISSION_FENCE_POLICY,
  ADMISSION_FENCE_TEMPLATE_POLICY,
  admissionFence,
  admissionFenceBindings,
  admissionFencePolicies,
  FENCED_CREATOR_ANNOTATION,
  WORKER_TEMPLATE_SELECTOR,
} from '../../../lib/plan/admission-fence';
import { stampWorker } from '../../../lib/plan/stamp';
import { plan, problems } from '../../support/fixtures';

describe('admission fence step', () => {
  test("the worker template names the master's ServiceAccount user as its fenced creator", () => {
    const p = plan({ applicationId: 'app-1', namespace: 'jobs', serviceAccount: 'runner' });
    expect(p.workerTemplate.metadata.annotations?.[FENCED_CREATOR_ANNOTATION]).toBe(
      'system:serviceaccount:jobs:runner',
    );
    expect(p.job.spec!.template.spec!.serviceAccountName).toBe('runner');
  });

  test('the binding finds the template by its labels', () => {
    expect(plan().workerTemplate.metadata.labels).toMatchObject(WORKER_TEMPLATE_SELECTOR);
  });

  test('the annotation stays on the template object: stamped workers do not carry it', () => {
    const p = plan({ applicationId: 'app-1' });
    const pod = stampWorker({ template: p.workerTemplate, appId: 'app-1', namespace: 'default' }, 1);
    expect(pod.metadata?.annotations?.[FENCED_CREATOR_ANNOTATION]).toBeUndefined();
  });

  test('a user annotation cannot name another creator', () => {
    // The model reserves every seatunnel.apache.org/ annotation key (issue 11, item 11).
    expect(
      problems(() =>
        plan({
          namespace: 'jobs',
          serviceAccount: 'runner',
          annotations: { [FENCED_CREATOR_ANNOTATION]: 'system:serviceaccount:jobs:other' },
        }),
      ),
    ).toEqual([
      expect.stringMatching(
        new RegExp(
          `^annotations\\.${FENCED_CREATOR_ANNOTATION.replace(/[./]/g, '\\$&')}: annotation keys under seatunnel\\.apache\\.org/ are reserved`,
        ),
      ),
    ]);
  });

  test('can be turned off', () => {
    expect(
      plan({ admissionFence: false }).workerTemplate.metadata.annotations?.[FENCED_CREATOR_ANNOTATION],
    ).toBeUndefined();
  });
});

describe("the platform's policies and bindings", () => {
  const [pods, templates] = admissionFencePolicies();
  const bindings = admissionFenceBindings();

  test("two policies, parameterised by the worker PodTemplates of the request's namespace; no template = nothing to enforce", () => {
    expect(admissionFence().map((o) => `${o.kind} ${o.metadata.name}`)).toEqual([
      `ValidatingAdmissionPolicy ${ADMISSION_FENCE_POLICY}`,
      `ValidatingAdmissionPolicy ${ADMISSION_FENCE_TEMPLATE_POLICY}`,
      `ValidatingAdmissionPolicyBinding ${ADMISSION_FENCE_POLICY}`,
      `ValidatingAdmissionPolicyBinding ${ADMISSION_FENCE_TEMPLATE_POLICY}`,
    ]);
    for (const policy of [pods, templates]) {
      expect(policy.spec!.paramKind).toEqual({ apiVersion: 'v1', kind: 'PodTemplate' });
      expect(policy.spec!.failurePolicy).toBe('Fail');
      expect(policy.spec!.matchConditions).toEqual([
        { name: 'service-account', expression: "request.userInfo.username.startsWith('system:serviceaccount:')" },
      ]);
      // Every validation applies only to the user the template fences.
      for (const v of policy.spec!.validations!) expect(v.expression).toMatch(/^!variables\.fenced \|\| /);
    }
    for (const b of bindings) {
      // No namespace: the parameters come from the namespace of the request.
      expect(b.spec!.paramRef).toEqual({
        selector: { matchLabels: WORKER_TEMPLATE_SELECTOR },
        parameterNotFoundAction: 'Allow',
      });
      expect(b.spec!.validationActions).toEqual(['Deny']);
      expect(b.spec!.matchResources).toBeUndefined();
    }
    expect(bindings.map((b) => b.spec!.policyName)).toEqual([ADMISSION_FENCE_POLICY, ADMISSION_FENCE_TEMPLATE_POLICY]);
  });

  test('Pod creations and worker template updates', () => {
    expect(pods.spec!.matchConstraints!.resourceRules).toEqual([
      { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] },
    ]);
    expect(templates.spec!.matchConstraints!.resourceRules).toEqual([
      { apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['podtemplates'] },
    ]);
  });

  test('a platform team can limit it to some namespaces', () => {
    const b = admissionFenceBindings({
      namespaceSelector: { matchLabels: { fenced: 'true' } },
      bindingPrefix: 'team-',
    });
    expect(b.map((x) => x.metadata.name)).toEqual([
      `team-${ADMISSION_FENCE_POLICY}`,
      `team-${ADMISSION_FENCE_TEMPLATE_POLICY}`,
    ]);
    for (const x of b)
      expect(x.spec!.matchResources).toEqual({ namespaceSelector: { matchLabels: { fenced: 'true' } } });
  });
});
