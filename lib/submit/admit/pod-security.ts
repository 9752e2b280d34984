// Pod Security for preflight: which level the namespace enforces (its
// `pod-security.kubernetes.io/enforce` label) and whether the master and worker Pods pass it.
// Whether they pass is the API server's own answer — the server-side dry runs of the Pods go
// through Pod Security admission — so nothing here re-implements the standard. Reading the
// namespace needs `get namespaces`, which a namespaced submitter Role cannot grant; without it,
// the level is taken from a refusal's text ("violates PodSecurity \"restricted:latest\"").

import type { PodSecurityLevel } from '../../model/props';
import { describeError, isStatus, type Kube, KubeApiError } from '../../kube';

export const ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';
export const ENFORCE_VERSION_LABEL = 'pod-security.kubernetes.io/enforce-version';

export interface PodSecurityReport {
  /** The enforced level; undefined when the namespace has no label or could not be read and nothing was refused. */
  readonly enforce?: string;
  readonly enforceVersion?: string;
  /** How the level was learned. */
  readonly source: 'namespace-label' | 'no-label' | 'refusal' | 'unreadable';
  /** The level the Pods are built for (`kubernetes.pod-security`). */
  readonly builtFor: PodSecurityLevel;
  /** True when Pod Security admission admitted the master and every worker Pod in the dry run. */
  readonly podsPass: boolean;
  /** The first Pod Security refusal, when there is one. */
  readonly refusal?: string;
}

export type NamespaceLabels = { labels: Record<string, string> } | { unreadable: string };

/** The namespace's labels, or why they could not be read (never fails preflight). */
export async function readNamespaceLabels(kube: Kube, namespace: string): Promise<NamespaceLabels> {
  try {
    const ns = await kube.call<{ metadata?: { labels?: Record<string, string> } }>({
      method: 'GET',
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}`,
    });
    return { labels: ns.metadata?.labels ?? {} };
  } catch (e) {
    if (e instanceof KubeApiError && e.status !== 0)
      return { unreadable: isStatus(e, 403) ? 'no permission to get namespaces' : describeError(e) };
    throw e;
  }
}

const REFUSAL = /violates PodSecurity "([a-z]+):([^"]+)"/;

export const isPodSecurityRefusal = (e: KubeApiError | undefined): boolean => !!e && REFUSAL.test(e.detail);

export function podSecurityReport(
  ns: NamespaceLabels,
  builtFor: PodSecurityLevel,
  podErrors: ReadonlyArray<KubeApiError | undefined>,
): PodSecurityReport {
  const refused = podErrors.find(isPodSecurityRefusal);
  const m = refused ? REFUSAL.exec(refused.detail) : null;
  const base = { builtFor, podsPass: !refused, ...(refused ? { refusal: refused.detail } : {}) };
  if ('labels' in ns) {
    const enforce = ns.labels[ENFORCE_LABEL];
    if (enforce === undefined) return { ...base, source: 'no-label' };
    return {
      ...base,
      enforce,
      enforceVersion: ns.labels[ENFORCE_VERSION_LABEL] ?? 'latest',
      source: 'namespace-label',
    };
  }
  if (m) return { ...base, enforce: m[1], enforceVersion: m[2], source: 'refusal' };
  return { ...base, source: 'unreadable' };
}

/** One line for people: the level, and whether the Pods pass it. */
export function describePodSecurity(r: PodSecurityReport, namespace: string, unreadable?: string): string {
  const level = r.enforce ? `enforces Pod Security "${r.enforce}" (version ${r.enforceVersion})` : undefined;
  const where =
    r.source === 'no-label'
      ? `namespace ${namespace} has no ${ENFORCE_LABEL} label (the cluster's default level applies)`
      : r.source === 'unreadable'
        ? `the labels of namespace ${namespace} could not be read (${unreadable ?? 'unknown'})`
        : `namespace ${namespace} ${level}${r.source === 'refusal' ? ' (learned from its refusal)' : ''}`;
  const pods = `the master and worker Pods, built for "${r.builtFor}" (kubernetes.pod-security)`;
  if (r.podsPass) return `${where}; ${pods}, pass it (server-side dry run)`;
  const hint =
    r.builtFor === 'baseline' && r.enforce === 'restricted'
      ? '; set kubernetes.pod-security = restricted (with an image that runs as a non-root user, or kubernetes.run-as-user)'
      : '';
  return `${where}; ${pods}, are refused by Pod Security admission: ${r.refusal}${hint}`;
}
