// Pod Security Standards: every container of every Pod of the application (init containers too)
// is hardened to the level chosen by `kubernetes.pod-security`, so the namespace's Pod Security
// admission (`pod-security.kubernetes.io/enforce`) admits them.
//   baseline   — what any image tolerates: no privilege escalation, the runtime's default seccomp
//                profile, no host namespaces, ports or paths (the plan never asks for those).
//   restricted — baseline plus runAsNonRoot and all capabilities dropped. The stock
//                apache/seatunnel image has no USER (it runs as root), so this needs an image with
//                a non-root user or `kubernetes.run-as-user`.
// Runs after every step that adds a container.

import type { Container, PodSecurityContext, PodSpec, SecurityContext } from 'kubernetes-types/core/v1';
import type { ApplicationSpec } from '../../model/spec';
import { allPods } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

/**
 * The runtime image's init container only copies world-readable files into an emptyDir, so it
 * can always run as this unprivileged user (the image itself is built as root).
 */
export const INIT_CONTAINER_USER = 65532;

export function podSecurityContext(spec: ApplicationSpec): PodSecurityContext {
  const { level, runAsUser } = spec.podSecurity;
  return {
    ...(level === 'restricted' ? { runAsNonRoot: true } : {}),
    ...(runAsUser !== undefined ? { runAsUser } : {}),
    seccompProfile: { type: 'RuntimeDefault' },
  };
}

export function containerSecurityContext(spec: ApplicationSpec, init: boolean): SecurityContext {
  const restricted = spec.podSecurity.level === 'restricted';
  return {
    allowPrivilegeEscalation: false,
    ...(restricted ? { capabilities: { drop: ['ALL'] }, runAsNonRoot: true } : {}),
    // Without a chosen user, the root-built runtime image would be refused by runAsNonRoot.
    ...(restricted && init && spec.podSecurity.runAsUser === undefined ? { runAsUser: INIT_CONTAINER_USER } : {}),
  };
}

function harden(spec: ApplicationSpec, pod: PodSpec): void {
  pod.securityContext = { ...pod.securityContext, ...podSecurityContext(spec) };
  const apply = (c: Container, init: boolean) => {
    c.securityContext = { ...c.securityContext, ...containerSecurityContext(spec, init) };
  };
  for (const c of pod.initContainers ?? []) apply(c, true);
  for (const c of pod.containers) apply(c, false);
}

export const podSecurityStep: FeatureStep = {
  name: 'pod-security',
  apply(d: PlanDraft): PlanDraft {
    for (const pod of allPods(d)) harden(d.spec, pod);
    return d;
  },
};
