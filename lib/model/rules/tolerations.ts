// Tolerations of a Pod role, checked as the API server would check them.

import { isOneOf, TOLERATION_EFFECTS, TOLERATION_OPERATORS } from '../allowed-values';
import { labelValueProblem, qualifiedNameProblem } from '../k8s-syntax';
import type { TolerationProps } from '../props';
import type { Toleration } from '../spec';
import type { PropReader } from './reader';

const listed = (values: readonly string[]) => `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;

export function resolveTolerations(r: PropReader, prop: 'masterTolerations' | 'workerTolerations'): Toleration[] {
  const v = r.props[prop] as unknown;
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    r.fail(prop, v, 'must be a list of tolerations');
    return [];
  }
  const out: Toleration[] = [];
  (v as TolerationProps[]).forEach((t, i) => {
    const sub = `[${i}]`;
    const operator = t.operator ?? 'Equal';
    let ok = true;
    const bad = (value: unknown, rule: string) => {
      r.fail(prop, value, rule, sub);
      ok = false;
    };
    if (!isOneOf(TOLERATION_OPERATORS, operator)) bad(t.operator, `operator must be ${listed(TOLERATION_OPERATORS)}`);
    if (t.key !== undefined && t.key !== '') {
      const kp = qualifiedNameProblem(t.key);
      if (kp) bad(t.key, `key ${kp}`);
    } else if (operator !== 'Exists') bad(t, 'a toleration without a key must use operator Exists');
    if (operator === 'Exists' && t.value) bad(t.value, 'operator Exists must not have a value');
    if (t.value) {
      const vp = labelValueProblem(t.value);
      if (vp) bad(t.value, vp.replace('label value', 'value'));
    }
    if (t.effect !== undefined && !isOneOf(TOLERATION_EFFECTS, t.effect))
      bad(t.effect, `effect must be ${listed(TOLERATION_EFFECTS)}`);
    if (t.tolerationSeconds !== undefined) {
      if (!Number.isInteger(t.tolerationSeconds) || t.tolerationSeconds < 0)
        bad(t.tolerationSeconds, 'toleration-seconds must be a non-negative integer');
      if (t.effect !== 'NoExecute') bad(t.tolerationSeconds, 'toleration-seconds is only valid with effect NoExecute');
    }
    if (!ok) return;
    out.push({
      ...(t.key ? { key: t.key } : {}),
      operator,
      ...(t.value ? { value: t.value } : {}),
      ...(t.effect ? { effect: t.effect } : {}),
      ...(t.tolerationSeconds !== undefined ? { tolerationSeconds: t.tolerationSeconds } : {}),
    });
  });
  return out;
}
