// How the Pods are hardened: the Pod Security Standards level they are built to pass and an
// optional non-root user. Bounds come from the registry; 0 (root) is below its minimum.

import { fileOption } from '../options';
import type { ApplicationSpec } from '../spec';
import type { PropReader } from './reader';

export function resolvePodSecurity(r: PropReader): ApplicationSpec['podSecurity'] {
  const level = r.choice('podSecurity');
  const v = r.props.runAsUser as unknown;
  if (v === undefined) return { level };
  const { min = 1, max = Number.MAX_SAFE_INTEGER } = fileOption('runAsUser');
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    r.fail('runAsUser', v, 'must be an integer');
    return { level };
  }
  if (v < min || v > max) {
    r.fail('runAsUser', v, `must be between ${min} and ${max}`);
    return { level };
  }
  return { level, runAsUser: v };
}
