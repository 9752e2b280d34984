// Kinds of the plan that only an extension API serves — the Prometheus operator's PodMonitor, a
// CRD that many clusters do not have. Without it the create answers 404 only after the Job exists
// (and is rolled back), with a message about a URL; so preflight and submit ask the API server's
// discovery first and say in one sentence what is missing, before anything is created.

import { isOptionDef, OPTIONS } from '../../model/options';
import type { PropName } from '../../model/rules/reader';
import { dependents } from '../../plan/build-plan';
import type { ApplicationPlan } from '../../plan/types';
import { isStatus, type Kube } from '../../kube';
import { groupOf, RESOURCES } from '../../kube/resources';

/** Extension kinds the plan may hold, each with the option that asks for it and where its CRD comes from. */
const EXTENSION_KINDS: Readonly<Record<string, { readonly option: PropName; readonly provider: string }>> = {
  PodMonitor: { option: 'metricsPodMonitor', provider: "the Prometheus operator's CRDs" },
};

interface ApiResourceList {
  readonly resources?: ReadonlyArray<{ readonly name?: string }>;
}

/** An extension kind of the plan the server does not serve, and the one sentence that says so. */
export interface UnservedKind {
  readonly kind: string;
  readonly apiVersion: string;
  readonly message: string;
}

/**
 * The extension kinds of the plan that the server does not serve (empty: all served, or none
 * used). One discovery GET per kind used, none for a plan without them.
 */
export async function unservedKinds(kube: Kube, plan: ApplicationPlan): Promise<UnservedKind[]> {
  const used = dependents(plan).filter((o) => o.kind in EXTENSION_KINDS);
  const seen = new Map<string, string>();
  for (const o of used) seen.set(o.kind, o.apiVersion);
  const problems = await Promise.all(
    [...seen].map(async ([kind, apiVersion]) => {
      const resource = RESOURCES[kind].resource;
      if (await serves(kube, apiVersion, resource)) return undefined;
      const { option, provider } = EXTENSION_KINDS[kind];
      const def = OPTIONS[option];
      const key = isOptionDef(def) ? def.key : option;
      const message = `${key}: the cluster does not serve ${resource}.${groupOf(apiVersion)} (${apiVersion} ${kind}); install ${provider}, or set ${key} = false`;
      return { kind, apiVersion, message };
    }),
  );
  return problems.filter((p): p is UnservedKind => p !== undefined);
}

/** Whether discovery of `apiVersion` lists `resource`; a group version the server does not know answers 404. */
async function serves(kube: Kube, apiVersion: string, resource: string): Promise<boolean> {
  try {
    const list = await kube.call<ApiResourceList>({ method: 'GET', path: `/apis/${apiVersion}` });
    return (list.resources ?? []).some((r) => r.name === resource);
  } catch (e) {
    if (isStatus(e, 404)) return false;
    throw e;
  }
}
