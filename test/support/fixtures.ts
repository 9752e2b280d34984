// Shared fixtures for unit tests of the model, the plan and the adapters.

import type { SeaTunnelApplicationProps } from '../../lib/model/props';
import { resolveApplication, type ResolveContext } from '../../lib/model/resolve';
import type { ApplicationSpec } from '../../lib/model/spec';
import { buildPlan } from '../../lib/plan/build-plan';
import type { ApplicationPlan, PlanOptions } from '../../lib/plan/types';

export const JOB_CONFIG = `env { job.mode = "BATCH" }
source { FakeSource { plugin_output = "fake", row.num = \${ROWS} } }
sink { Console { plugin_input = "fake" } }
`;

/**
 * A job config the kubelet would change if it were not escaped: `$$`, `$(VAR)` of a variable the
 * master has, `$${X}`, a lone `$` before a non-ASCII character, and an unclosed `$(`.
 */
export const DOLLAR_JOB_CONFIG = `env { job.mode = "BATCH", a = "$$", b = "$(SEATUNNEL_POD_NAME)", c = "$\${X}", d = "€$é", e = "$(" }
source { FakeSource { plugin_output = "fake", row.num = 3 } }
sink { Console { plugin_input = "fake" } }
`;

export function props(extra: Partial<SeaTunnelApplicationProps> = {}): SeaTunnelApplicationProps {
  return { name: 'orders', image: 'apache/seatunnel:2.3.12', jobConfig: JOB_CONFIG, ...extra };
}

/** Deterministic "random" bytes for tests of random IDs. */
export function fixedRandom(byte = 0xab): (n: number) => Uint8Array {
  return (n) => new Uint8Array(n).fill(byte);
}

export function spec(extra: Partial<SeaTunnelApplicationProps> = {}, ctx: ResolveContext = {}): ApplicationSpec {
  return resolveApplication(props(extra), ctx);
}

export function plan(extra: Partial<SeaTunnelApplicationProps> = {}, options: PlanOptions = {}): ApplicationPlan {
  return buildPlan(spec(extra), options);
}

/** The messages of the ConfigurationError `fn` throws (fails the test if it does not throw one). */
export function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    const issues = (e as { issues?: Array<{ key: string; rule: string }> }).issues;
    if (!issues) throw e;
    return issues.map((i) => `${i.key}: ${i.rule}`);
  }
  throw new Error('expected a ConfigurationError, but nothing was thrown');
}
