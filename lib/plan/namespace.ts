// The namespace a platform team makes for SeaTunnel applications (docs/quick-start.md, step 1):
// Pod Security enforced. Whoever may create Pods in a namespace that enforces nothing can run a
// privileged Pod with the node's root filesystem mounted and take the node — and the submitter
// Role may create Pods (RBAC's escalation check; docs/security.md). `baseline` is what the
// application's own Pods pass with any image; `restricted` needs an image that runs as non-root
// (kubernetes.pod-security).

import type { Namespace } from 'kubernetes-types/core/v1';
import type { PodSecurityLevel } from '../model/props';
import { sharedObjectLabels } from './recommended-labels';

export interface ApplicationNamespaceOptions {
  /** The Pod Security level the namespace enforces (and warns and audits at). @default 'baseline' */
  readonly podSecurity?: PodSecurityLevel;
}

/** A namespace for SeaTunnel applications that enforces Pod Security (`baseline` by default). */
export function applicationNamespace(
  name: string,
  opts: ApplicationNamespaceOptions = {},
): Namespace & { apiVersion: 'v1'; kind: 'Namespace'; metadata: { name: string } } {
  const level = opts.podSecurity ?? 'baseline';
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: {
        ...sharedObjectLabels('namespace'),
        'pod-security.kubernetes.io/enforce': level,
        'pod-security.kubernetes.io/enforce-version': 'latest',
        'pod-security.kubernetes.io/warn': level,
        'pod-security.kubernetes.io/audit': level,
      },
    },
  };
}
