import { ADMISSION_FENCE_POLICY, admissionFence, FENCED_CREATOR_ANNOTATION, WORKER_TEMPLATE_SELECTOR } from '../../../lib/plan/admission-fence';
import { stampWorkerPod } from '../../../lib/plan/stamp';
import { plan } from '../../support/fixtures';

describe('admission fence step', () => {
  test('the worker template names the master\'s ServiceAccount user as its fenced creator', () => {
    const p = plan({ applicationId: 'app-1', namespace: 'jobs', serviceAccount: 'runner' });
    expect(p.workerTemplate.metadata.annotations?.[FENCED_CREATOR_ANNOTATION]).toBe('system:serviceaccount:jobs:runner');
    expect(p.job.spec!.template.spec!.serviceAccountName).toBe('runner');
  });

  test('the binding finds the template by its labels', () => {
    expect(plan().workerTemplate.metadata.labels).toMatchObject(WORKER_TEMPLATE_SELECTOR);
  });

  test('the annotation stays on the template object: stamped workers do not carry it', () => {
    const p = plan({ applicationId: 'app-1' });
    const pod = stampWorkerPod(p.workerTemplate, { appId: 'app-1', namespace: 'default', n: 1 });
    expect(pod.metadata?.annotations?.[FENCED_CREATOR_ANNOTATION]).toBeUndefined();
  });

  test('a user annotation cannot name another creator', () => {
    const p = plan({ namespace: 'jobs', serviceAccount: 'runner', annotations: { [FENCED_CREATOR_ANNOTATION]: 'system:serviceaccount:jobs:other' } });
    expect(p.workerTemplate.metadata.annotations?.[FENCED_CREATOR_ANNOTATION]).toBe('system:serviceaccount:jobs:runner');
  });

  test('can be turned off', () => {
    expect(plan({ admissionFence: false }).workerTemplate.metadata.annotations?.[FENCED_CREATOR_ANNOTATION]).toBeUndefined();
  });
});

describe('the platform\'s policy and binding', () => {
  const [policy, binding] = admissionFence();

  test('one policy, parameterised by worker PodTemplates of the request\'s namespace; no template = nothing to enforce', () => {
    expect(policy.spec!.paramKind).toEqual({ apiVersion: 'v1', kind: 'PodTemplate' });
    expect(binding.spec!.policyName).toBe(ADMISSION_FENCE_POLICY);
    // No namespace: the parameters come from the namespace of the request.
    expect(binding.spec!.paramRef).toEqual({ selector: { matchLabels: WORKER_TEMPLATE_SELECTOR }, parameterNotFoundAction: 'Allow' });
    expect(binding.spec!.validationActions).toEqual(['Deny']);
    expect(binding.spec!.matchResources).toBeUndefined();
    expect(policy.spec!.failurePolicy).toBe('Fail');
  });

  test('checks Pod creations and worker template updates by ServiceAccounts only', () => {
    expect(policy.spec!.matchConstraints!.resourceRules).toEqual([
      { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] },
      { apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['podtemplates'] },
    ]);
    expect(policy.spec!.matchConditions).toEqual([{ name: 'service-account', expression: "request.userInfo.username.startsWith('system:serviceaccount:')" }]);
    // Every validation applies only to the user the template fences.
    for (const v of policy.spec!.validations!) expect(v.expression).toMatch(/^!variables\.fenced(PodCreate|TemplateUpdate) \|\| /);
  });

  test('a platform team can limit it to some namespaces', () => {
    const [, b] = admissionFence({ namespaceSelector: { matchLabels: { fenced: 'true' } }, bindingName: 'mine' });
    expect(b.metadata.name).toBe('mine');
    expect(b.spec!.matchResources).toEqual({ namespaceSelector: { matchLabels: { fenced: 'true' } } });
  });
});
