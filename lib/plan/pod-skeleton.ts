// The bare Pods every other part of the plan builds on: one main container with its image and
// resources, the restart policy, the token rule and the role's labels. The master topologies
// (./topology) and the basic step (the worker template) each make theirs from here.

import type { Container, PodSpec, PodTemplateSpec } from 'kubernetes-types/core/v1';
import { cpuQuantity } from '../model/k8s-syntax';
import { TERMINATION_GRACE_SECONDS, type RoleLabel } from '../model/reserved';
import type { ApplicationSpec, RoleSpec } from '../model/spec';
import { applicationLabels, CONTAINER_NAME } from './pod';

/** What a main container asks for; requests equal limits. */
export interface PodSize {
  readonly cpu: string;
  readonly memory: string;
}

/** What sets one of the application's Pods apart from the others at birth. */
export interface PodShape {
  readonly size: PodSize;
  /** Zeta's masters restart in place under a StatefulSet; everything else runs once. */
  readonly restartPolicy: 'Never' | 'Always';
  /** Only the Pod whose process calls the API server (the runtime's) mounts a token. */
  readonly apiToken: boolean;
}

/** The size `kubernetes.<role>.cpu` and `.memory` ask for. */
export const roleSize = (role: RoleSpec): PodSize => ({
  cpu: cpuQuantity(role.cpuMillicores),
  memory: `${role.memoryMiB}Mi`,
});

function container(spec: ApplicationSpec, size: PodSize): Container {
  return {
    name: CONTAINER_NAME,
    image: spec.image,
    imagePullPolicy: spec.imagePullPolicy,
    workingDir: spec.seatunnelHome,
    // Requests equal limits: the Pods get the Guaranteed QoS class and quota sees the real footprint.
    resources: { requests: { ...size }, limits: { ...size } },
    securityContext: { allowPrivilegeEscalation: false },
  };
}

export function podSkeleton(spec: ApplicationSpec, shape: PodShape): PodSpec {
  return {
    restartPolicy: shape.restartPolicy,
    terminationGracePeriodSeconds: TERMINATION_GRACE_SECONDS,
    serviceAccountName: spec.serviceAccount,
    automountServiceAccountToken: shape.apiToken,
    enableServiceLinks: false,
    ...(spec.imagePullSecrets.length ? { imagePullSecrets: spec.imagePullSecrets.map((name) => ({ name })) } : {}),
    containers: [container(spec, shape.size)],
  };
}

/** A Pod template's metadata: the application's labels for `role`, then the user's for the role's options. */
export function podMetadata(spec: ApplicationSpec, role: RoleLabel, options: RoleSpec): PodTemplateSpec['metadata'] {
  return {
    labels: { ...applicationLabels(spec, role, role), ...options.labels },
    ...(Object.keys(options.annotations).length ? { annotations: { ...options.annotations } } : {}),
  };
}
