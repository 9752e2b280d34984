import type { PodSpec } from 'kubernetes-types/core/v1';
import { INIT_CONTAINER_USER } from '../../../lib/plan/steps/pod-security';
import { plan, problems, spec } from '../../support/fixtures';
import { masterPod, workerPod } from './helpers';

const containers = (pod: PodSpec) => [...(pod.initContainers ?? []), ...pod.containers];
const pods = (p: ReturnType<typeof plan>) => [masterPod(p), workerPod(p)];

describe('pod security step', () => {
  test('baseline (the default): every container of both Pods, init containers included, without privilege escalation; seccomp RuntimeDefault', () => {
    const p = plan();
    expect(p.spec.podSecurity).toEqual({ level: 'baseline' });
    expect(masterPod(p).initContainers).toHaveLength(1);
    for (const pod of pods(p)) {
      expect(pod.securityContext).toEqual({ seccompProfile: { type: 'RuntimeDefault' } });
      for (const c of containers(pod)) expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false });
      // Nothing baseline forbids: host namespaces, host ports, hostPath, privileged.
      expect([pod.hostNetwork, pod.hostPID, pod.hostIPC]).toEqual([undefined, undefined, undefined]);
      expect((pod.volumes ?? []).filter((v) => v.hostPath)).toEqual([]);
      expect(
        containers(pod)
          .flatMap((c) => c.ports ?? [])
          .filter((x) => x.hostPort !== undefined),
      ).toEqual([]);
    }
  });

  test("restricted: runAsNonRoot, all capabilities dropped; the runtime image's init container runs as an unprivileged user", () => {
    const p = plan({ podSecurity: 'restricted' });
    for (const pod of pods(p)) {
      expect(pod.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      for (const c of pod.containers)
        expect(c.securityContext).toEqual({
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
          runAsNonRoot: true,
        });
    }
    expect(masterPod(p).initContainers![0].securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      runAsNonRoot: true,
      runAsUser: INIT_CONTAINER_USER,
    });
  });

  test('run-as-user sets the user of every container, the init container included', () => {
    const p = plan({ podSecurity: 'restricted', runAsUser: 1000 });
    for (const pod of pods(p)) {
      expect(pod.securityContext).toMatchObject({ runAsUser: 1000, runAsNonRoot: true });
      for (const c of containers(pod)) expect(c.securityContext?.runAsUser).toBeUndefined();
    }
    expect(masterPod(plan({ runAsUser: 1000 })).securityContext).toEqual({
      runAsUser: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });

  test('root and non-integers are refused with the option, the value and the rule', () => {
    expect(problems(() => spec({ runAsUser: 0 }))).toEqual(['runAsUser: must be between 1 and 2147483647']);
    expect(problems(() => spec({ runAsUser: 1.5 }))).toEqual(['runAsUser: must be an integer']);
    expect(problems(() => spec({ podSecurity: 'privileged' as never }))).toEqual([
      'podSecurity: must be one of baseline, restricted (case-sensitive)',
    ]);
  });
});
