import { ANNOTATIONS, RUNTIME_ANNOTATION_KEYS } from '../../../lib/contract';
import {
  ADMISSION_FENCE_FLOOR_POLICY,
  ADMISSION_FENCE_JOB_POLICY,
  ADMISSION_FENCE_POLICY,
  ADMISSION_FENCE_TEMPLATE_POLICY,
  admissionFence,
  FENCE_MARK_GROUP,
  FENCE_MARKS,
  admissionFenceBindings,
  admissionFencePolicies,
  FENCED_CREATOR_ANNOTATION,
  WORKER_TEMPLATE_SELECTOR,
} from '../../../lib/plan/admission-fence';
import { stampWorker } from '../../../lib/plan/stamp';
import { fenceMarkRules, referencedObjects } from '../../../lib/plan/steps/admission-fence';
import { submitterRules } from '../../../lib/plan/submitter-rbac';
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

describe("the runtime Role's fence marks", () => {
  const p = plan({
    applicationId: 'app-1',
    imagePullSecrets: ['regcred'],
    secrets: { tls: { ref: 'tls-store', mounts: { 'keystore.jks': '/etc/tls/keystore.jks' }, roles: ['worker'] } },
  });
  const marks = p.roles[0].rules!.filter((r) => r.apiGroups!.includes(FENCE_MARK_GROUP));

  test('mark the ServiceAccount as fenced, name its application, and list what the workers refer to', () => {
    expect(marks).toEqual([
      { apiGroups: [FENCE_MARK_GROUP], resources: ['subjects'], verbs: ['fenced'] },
      {
        apiGroups: [FENCE_MARK_GROUP],
        resources: ['applications'],
        resourceNames: ['app-1'],
        verbs: ['create-workers'],
      },
      {
        apiGroups: [FENCE_MARK_GROUP],
        resources: ['secrets'],
        resourceNames: ['regcred', 'tls-store'],
        verbs: ['use'],
      },
      { apiGroups: [FENCE_MARK_GROUP], resources: ['configmaps'], resourceNames: ['app-1-engine'], verbs: ['use'] },
    ]);
    expect(referencedObjects(p.workerTemplate.template!.spec!)).toEqual({
      secrets: ['regcred', 'tls-store'],
      configMaps: ['app-1-engine'],
      claims: [],
    });
  });

  test('a mark never has an empty resourceNames (which would mean every name)', () => {
    for (const r of fenceMarkRules('a', { containers: [{ name: 'c' }] }))
      if (r.resources![0] !== FENCE_MARKS.subject.resource) expect(r.resourceNames!.length).toBeGreaterThan(0);
  });

  test('none without the fence', () => {
    const off = plan({ admissionFence: false });
    expect(off.roles[0].rules!.some((r) => r.apiGroups!.includes(FENCE_MARK_GROUP))).toBe(false);
  });

  test('the submitter Role holds every mark (RBAC escalation check)', () => {
    const rule = submitterRules().find((r) => r.apiGroups!.includes(FENCE_MARK_GROUP))!;
    for (const m of Object.values(FENCE_MARKS)) {
      expect(rule.resources).toContain(m.resource);
      expect(rule.verbs).toContain(m.verb);
    }
    expect(rule.resourceNames).toBeUndefined();
  });
});

describe("the platform's policies and bindings", () => {
  const [pods, templates, floor, jobs] = admissionFencePolicies();
  const bindings = admissionFenceBindings();

  test('four policies; the two on templates take the worker PodTemplates of the namespace as parameters', () => {
    expect(admissionFence().map((o) => `${o.kind} ${o.metadata.name}`)).toEqual([
      `ValidatingAdmissionPolicy ${ADMISSION_FENCE_POLICY}`,
      `ValidatingAdmissionPolicy ${ADMISSION_FENCE_TEMPLATE_POLICY}`,
      `ValidatingAdmissionPolicy ${ADMISSION_FENCE_FLOOR_POLICY}`,
      `ValidatingAdmissionPolicy ${ADMISSION_FENCE_JOB_POLICY}`,
      `ValidatingAdmissionPolicyBinding ${ADMISSION_FENCE_POLICY}`,
      `ValidatingAdmissionPolicyBinding ${ADMISSION_FENCE_TEMPLATE_POLICY}`,
      `ValidatingAdmissionPolicyBinding ${ADMISSION_FENCE_FLOOR_POLICY}`,
      `ValidatingAdmissionPolicyBinding ${ADMISSION_FENCE_JOB_POLICY}`,
    ]);
    for (const policy of [pods, templates]) {
      expect(policy.spec!.paramKind).toEqual({ apiVersion: 'v1', kind: 'PodTemplate' });
      // Every validation applies only to the user the template fences.
      for (const v of policy.spec!.validations!) expect(v.expression).toMatch(/^!variables\.fenced \|\| /);
    }
    for (const policy of [pods, templates, floor, jobs]) {
      expect(policy.spec!.failurePolicy).toBe('Fail');
      expect(policy.spec!.matchConditions![0]).toEqual({
        name: 'service-account',
        expression: "request.userInfo.username.startsWith('system:serviceaccount:')",
      });
    }
    expect(floor.spec!.paramKind).toBeUndefined();
    expect(jobs.spec!.paramKind).toBeUndefined();
    for (const b of bindings) {
      // No namespace: the parameters come from the namespace of the request.
      if ([ADMISSION_FENCE_POLICY, ADMISSION_FENCE_TEMPLATE_POLICY].includes(b.spec!.policyName!))
        expect(b.spec!.paramRef).toEqual({
          selector: { matchLabels: WORKER_TEMPLATE_SELECTOR },
          parameterNotFoundAction: 'Allow',
        });
      else expect(b.spec!.paramRef).toBeUndefined();
      expect(b.spec!.validationActions).toEqual(['Deny']);
      expect(b.spec!.matchResources).toBeUndefined();
    }
  });

  test('the floor applies to a ServiceAccount its Role marks as fenced, and not to dry runs', () => {
    expect(floor.spec!.matchConditions!.map((c) => c.expression)).toEqual([
      "request.userInfo.username.startsWith('system:serviceaccount:')",
      '!request.?dryRun.orValue(false)',
      `authorizer.group('${FENCE_MARK_GROUP}').resource('subjects').namespace(request.namespace).check('fenced').allowed()`,
    ]);
  });

  test('Pod creations, worker template updates and deletions, Job updates', () => {
    expect(pods.spec!.matchConstraints!.resourceRules).toEqual([
      { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] },
    ]);
    expect(templates.spec!.matchConstraints!.resourceRules).toEqual([
      { apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE', 'DELETE'], resources: ['podtemplates'] },
    ]);
    expect(floor.spec!.matchConstraints!.resourceRules).toEqual(pods.spec!.matchConstraints!.resourceRules);
    expect(jobs.spec!.matchConstraints!.resourceRules).toEqual([
      { apiGroups: ['batch'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['jobs'] },
    ]);
  });

  test('the runtime may change exactly the annotations it writes on its Job', () => {
    const expression = jobs.spec!.validations![0].expression;
    for (const k of RUNTIME_ANNOTATION_KEYS) expect(expression).toContain(`'${ANNOTATIONS[k]}'`);
    for (const k of ['cancelRequested', 'workerTemplate', 'applicationName', 'mastersDesired'] as const)
      expect(expression).not.toContain(`'${ANNOTATIONS[k]}'`);
  });

  test('a platform team can limit it to some namespaces', () => {
    const b = admissionFenceBindings({
      namespaceSelector: { matchLabels: { fenced: 'true' } },
      bindingPrefix: 'team-',
    });
    expect(b.map((x) => x.metadata.name)).toEqual(
      [
        ADMISSION_FENCE_POLICY,
        ADMISSION_FENCE_TEMPLATE_POLICY,
        ADMISSION_FENCE_FLOOR_POLICY,
        ADMISSION_FENCE_JOB_POLICY,
      ].map((n) => `team-${n}`),
    );
    for (const x of b)
      expect(x.spec!.matchResources).toEqual({ namespaceSelector: { matchLabels: { fenced: 'true' } } });
  });
});
