// Labels, annotations and node selectors: string maps under Kubernetes' key and value rules, with
// the label keys this tool and the Job controller set kept out of users' hands.

import { labelValueProblem, qualifiedNameProblem } from '../k8s-syntax';
import type { PodRole } from '../props';
import { LABELS, RESERVED_KEY_PREFIX } from '../reserved';
import type { PropReader, PropName } from './reader';

const RESERVED_LABELS = new Set<string>([
  LABELS.name,
  LABELS.instance,
  LABELS.component,
  LABELS.managedBy,
  'controller-uid',
  'job-name',
  'batch.kubernetes.io/controller-uid',
  'batch.kubernetes.io/job-name',
]);

/**
 * Recommended labels with a default that `kubernetes.labels` may replace on every object at once;
 * a role's labels may not, or the Pods of one application would disagree with its other objects.
 */
const APPLICATION_WIDE_LABELS = new Set<string>([LABELS.version, LABELS.partOf]);

/** Kubernetes' limit on the total size of an object's annotations. */
const MAX_ANNOTATION_BYTES = 256 * 1024;

export type StringMapKind = 'label' | 'annotation' | 'selector';

export function resolveStringMap(
  r: PropReader,
  prop: PropName,
  kind: StringMapKind,
  role?: PodRole,
): Record<string, string> {
  const v = r.props[prop] as unknown;
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    r.fail(prop, v, 'must be an object of string keys and values');
    return {};
  }
  const out: Record<string, string> = {};
  let size = 0;
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (typeof val !== 'string') {
      r.fail(prop, val, 'values must be strings', k);
      continue;
    }
    const keyProblem = qualifiedNameProblem(k);
    if (keyProblem) {
      r.fail(prop, k, keyProblem, k);
      continue;
    }
    if (kind === 'label' && (k.startsWith(RESERVED_KEY_PREFIX) || RESERVED_LABELS.has(k))) {
      r.fail(
        prop,
        k,
        `the label key is reserved (set by this tool${role === 'master' || !role ? ' or by the Job controller' : ''}); choose another key`,
        k,
      );
      continue;
    }
    if (kind === 'label' && role && APPLICATION_WIDE_LABELS.has(k)) {
      r.fail(prop, k, 'the label is the same on every object of the application: set it in kubernetes.labels', k);
      continue;
    }
    // The runtime acts on its annotations (cancel-requested stops the job) and `status` reads
    // them (phase, job-status): a user's value there would cancel the application or misreport it.
    if (kind === 'annotation' && k.startsWith(RESERVED_KEY_PREFIX)) {
      r.fail(
        prop,
        k,
        `annotation keys under ${RESERVED_KEY_PREFIX} are reserved: this tool and the runtime set and act on them; choose another key`,
        k,
      );
      continue;
    }
    if (kind !== 'annotation') {
      const vp = labelValueProblem(val);
      if (vp) {
        r.fail(prop, val, vp, k);
        continue;
      }
    }
    size += k.length + val.length;
    out[k] = val;
  }
  if (kind === 'annotation' && size > MAX_ANNOTATION_BYTES)
    r.fail(prop, `${size} bytes`, 'annotations must total at most 256 KiB');
  return out;
}
