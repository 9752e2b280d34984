// Kubernetes' recommended labels (app.kubernetes.io/*) beside SeaTunnel's own, so that dashboards,
// `kubectl get -l` and policy tools that know the convention see an application like any other
// workload. Only labels: every selector of the plan stays on the application-id and role labels
// (pod.ts roleSelector), which Services, StatefulSets and NetworkPolicies keep for their lifetime.

import { applicationIdPrefix } from '../model/ids';
import { LABELS, MANAGED_BY } from '../model/reserved';
import type { ApplicationSpec } from '../model/spec';

/** The product every object belongs to (`app.kubernetes.io/name`). */
export const PRODUCT = 'seatunnel';

const LABEL_VALUE_MAX = 63;

/** `s` cut to a label value: other characters become "-", at most 63, letters or digits at both ends. */
function labelSafe(s: string): string {
  return s
    .replace(/[^A-Za-z0-9_.-]/g, '-')
    .slice(0, LABEL_VALUE_MAX)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}

/**
 * The engine's version as the image names it: the tag (`apache/seatunnel:2.3.8` → `2.3.8`), else
 * the start of the digest (`sha256-<12 hex>`), else `latest` (what a runtime pulls for a bare name).
 */
export function imageVersionLabel(image: string): string {
  const [ref, digest] = image.split('@', 2);
  const colon = ref.lastIndexOf(':');
  const tag = colon > ref.lastIndexOf('/') ? ref.slice(colon + 1) : '';
  const [algorithm, hex] = (digest ?? '').split(':', 2);
  if (tag) return labelSafe(tag) || 'unknown';
  if (hex) return labelSafe(`${algorithm}-${hex.slice(0, 12)}`) || 'unknown';
  return 'latest';
}

/**
 * The recommended labels of one application's objects that a user may replace for all of them with
 * `kubernetes.labels`: `part-of` (default: the readable part of the application ID, the same for
 * every run of one job) and `version` (default: the engine image's tag).
 */
export function replaceableLabels(spec: Pick<ApplicationSpec, 'name' | 'image'>): Record<string, string> {
  return { [LABELS.partOf]: applicationIdPrefix(spec.name), [LABELS.version]: imageVersionLabel(spec.image) };
}

/** The recommended labels this tool always sets on an application's object. */
export function fixedLabels(appId: string, component: string): Record<string, string> {
  return {
    [LABELS.name]: PRODUCT,
    [LABELS.instance]: appId,
    [LABELS.component]: component,
    [LABELS.managedBy]: MANAGED_BY,
  };
}

/**
 * Labels of an object that belongs to no one application (a namespace, the submitter Role, the
 * admission fence): no instance, and no version, which is the engine's.
 */
export function sharedObjectLabels(component: string): Record<string, string> {
  return { [LABELS.name]: PRODUCT, [LABELS.component]: component, [LABELS.managedBy]: MANAGED_BY };
}
