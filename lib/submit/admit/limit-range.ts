// LimitRange compatibility of the application's containers and Pods (footprint.ts, after the
// defaulting LimitRanger applies): min, max and maxLimitRequestRatio, and a note on the defaults
// a LimitRange fills in. Pure.

import {
  amounts,
  formatQuantity,
  type Amounts,
  type Footprint,
  type FootprintProblem,
  type LimitRangeLike,
} from './footprint';

export interface LimitRangeReport {
  readonly problems: FootprintProblem[];
  /** Defaults a LimitRange would fill in, and why they do or do not matter. */
  readonly notes: string[];
}

export function checkLimitRanges(limitRanges: readonly LimitRangeLike[], fp: Footprint): LimitRangeReport {
  const problems: FootprintProblem[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  const push = (object: string, message: string) => {
    if (seen.has(message)) return;
    seen.add(message);
    problems.push({ check: 'limit-range', object, message });
  };
  for (const lr of limitRanges) {
    const name = lr.metadata?.name ?? '(unnamed)';
    const object = `LimitRange ${name}`;
    for (const item of lr.spec?.limits ?? []) {
      const mx = amounts(item.max);
      const mn = amounts(item.min);
      const ratio = amounts(item.maxLimitRequestRatio);
      const judge = (what: string, requests: Amounts, limits: Amounts, per: string) => {
        for (const [res, v] of Object.entries(mx)) {
          const f = (x: number) => formatQuantity(res, x);
          if (limits[res] === undefined)
            push(
              object,
              `${object}: ${what}: sets no ${res} limit, but the maximum per ${per} is ${f(v)} (a limit is required)`,
            );
          else if (limits[res] > v + 1e-9)
            push(object, `${object}: ${what}: ${res} limit ${f(limits[res])} is above the maximum ${f(v)} per ${per}`);
          else if (requests[res] !== undefined && requests[res] > v + 1e-9)
            push(
              object,
              `${object}: ${what}: ${res} request ${f(requests[res])} is above the maximum ${f(v)} per ${per}`,
            );
        }
        for (const [res, v] of Object.entries(mn)) {
          const f = (x: number) => formatQuantity(res, x);
          if (requests[res] === undefined)
            push(object, `${object}: ${what}: sets no ${res} request, but the minimum per ${per} is ${f(v)}`);
          else if (requests[res] < v - 1e-9)
            push(
              object,
              `${object}: ${what}: ${res} request ${f(requests[res])} is below the minimum ${f(v)} per ${per}`,
            );
          else if (limits[res] !== undefined && limits[res] < v - 1e-9)
            push(object, `${object}: ${what}: ${res} limit ${f(limits[res])} is below the minimum ${f(v)} per ${per}`);
        }
        for (const [res, r] of Object.entries(ratio)) {
          const req = requests[res];
          const lim = limits[res];
          if (lim === undefined) continue;
          if (!req)
            push(
              object,
              `${object}: ${what}: ${res} has a limit but no request, and the limit/request ratio is capped at ${r}`,
            );
          else if (lim / req > r + 1e-9)
            push(
              object,
              `${object}: ${what}: ${res} limit/request ratio ${(lim / req).toFixed(2)} is above the maximum ${r}`,
            );
        }
      };
      if (item.type === 'Container') {
        for (const [role, p] of [
          ['master', fp.master],
          ['worker', fp.worker],
        ] as const) {
          for (const c of p.containers)
            judge(`the ${role} Pod's ${c.init ? 'init ' : ''}container "${c.name}"`, c.requests, c.limits, 'Container');
        }
        const defaults = [
          ...Object.entries(amounts(item.default)).map(([k, v]) => `limit ${k} ${formatQuantity(k, v)}`),
          ...Object.entries(amounts(item.defaultRequest)).map(([k, v]) => `request ${k} ${formatQuantity(k, v)}`),
        ];
        if (defaults.length) {
          const applied = [
            ...fp.master.containers.map((c) => ['master', c] as const),
            ...fp.worker.containers.map((c) => ['worker', c] as const),
          ].flatMap(([role, c]) =>
            c.defaulted
              .filter((d) => d.endsWith(object))
              .map((d) => `${role} container "${c.name}": ${d.replace(` from ${object}`, '')}`),
          );
          notes.push(
            applied.length
              ? `${object} fills in container defaults (${defaults.join(', ')}); applied here: ${applied.join('; ')} (checked after defaulting)`
              : `${object} sets container defaults (${defaults.join(', ')}); none applies: every container of the application sets its own requests and limits`,
          );
        }
      } else if (item.type === 'Pod') {
        for (const [role, p] of [
          ['master', fp.master],
          ['worker', fp.worker],
        ] as const)
          judge(`the ${role} Pod`, p.requests, p.limits, 'Pod');
      }
    }
  }
  return { problems, notes };
}
