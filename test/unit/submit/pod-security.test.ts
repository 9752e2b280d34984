import { KubeApiError } from '../../../lib/kube';
import { describePodSecurity, podSecurityReport } from '../../../lib/submit/admit/pod-security';

const request = { method: 'POST', path: '/api/v1/namespaces/ns/pods' };
const refusal = new KubeApiError(
  403,
  'Forbidden',
  'pods "a-worker-1" is forbidden: violates PodSecurity "restricted:v1.30": runAsNonRoot != true (pod or container "seatunnel" must set securityContext.runAsNonRoot=true)',
  request,
);
const quota = new KubeApiError(403, 'Forbidden', 'exceeded quota: small', request);

describe('preflight: Pod Security report', () => {
  test("the level comes from the namespace label; other refusals are not Pod Security's", () => {
    const r = podSecurityReport({ labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } }, 'baseline', [
      undefined,
      quota,
    ]);
    expect(r).toEqual({
      enforce: 'baseline',
      enforceVersion: 'latest',
      source: 'namespace-label',
      builtFor: 'baseline',
      podsPass: true,
    });
  });

  test('without permission to read the namespace, the level is learned from the refusal', () => {
    const r = podSecurityReport({ unreadable: 'no permission to get namespaces' }, 'baseline', [refusal]);
    expect(r).toMatchObject({ enforce: 'restricted', enforceVersion: 'v1.30', source: 'refusal', podsPass: false });
    expect(describePodSecurity(r, 'ns')).toMatch(
      /^namespace ns enforces Pod Security "restricted" \(version v1.30\) \(learned from its refusal\); .* are refused .*; set kubernetes.pod-security = restricted/,
    );
  });

  test('unreadable and admitted: says so rather than guessing a level', () => {
    const r = podSecurityReport({ unreadable: 'no permission to get namespaces' }, 'restricted', [undefined]);
    expect(r).toEqual({ source: 'unreadable', builtFor: 'restricted', podsPass: true });
    expect(describePodSecurity(r, 'ns', 'no permission to get namespaces')).toBe(
      'the labels of namespace ns could not be read (no permission to get namespaces); the master and worker Pods, built for "restricted" (kubernetes.pod-security), pass it (server-side dry run)',
    );
  });

  test('no label: the cluster default applies', () => {
    expect(describePodSecurity(podSecurityReport({ labels: {} }, 'baseline', []), 'ns')).toMatch(
      /^namespace ns has no pod-security.kubernetes.io\/enforce label/,
    );
  });
});
