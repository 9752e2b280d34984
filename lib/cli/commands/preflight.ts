// `seatunnel-app preflight` (and `submit --dry-run`): every problem that would stop the
// application, found before anything is created, one line each; exit 4 when there is any.

import type { ApplicationPlan } from '../../plan/types';
import type { Kube } from '../../kube';
import { runPreflight } from '../../submit/admit/preflight';
import type { PreflightReport } from '../../submit/admit/preflight-judge';
import { IMAGE_DELIVERY_HINT } from '../../submit/observe/image-pull';
import { DEFAULT_RUNTIME_IMAGE } from '../../model/version';
import { serverDependentUse, type ServerSupport } from '../../submit/admit/server-support';
import type { ParsedArgs } from '../args';
import { connectKube, kubeconfigFromUntrustedFile, readServerSupport } from '../connect';
import { CLI_EXIT } from '../exit-codes';
import { planFromArgs } from '../load';
import type { Output } from '../output';

export function preflightLines(r: PreflightReport): string[] {
  const fp = r.footprint;
  const res = (a: Record<string, string>) =>
    ['cpu', 'memory']
      .filter((k) => a[k] !== undefined)
      .map((k) => `${k} ${a[k]}`)
      .join(', ');
  const lines = [
    `Application ID: ${r.applicationId}`,
    `Namespace: ${r.namespace}`,
    `Kubernetes: ${r.server}`,
    `Footprint: ${fp.pods} Pods (master + ${fp.workers} worker${fp.workers === 1 ? '' : 's'}); requests ${res(fp.requests)}; limits ${res(fp.limits)}`,
    // A dry run cannot tell whether the nodes can pull them; what to do when they cannot, in one sentence.
    `Images: ${r.images.join(', ')} (pulled by the nodes when the application starts; if a node cannot pull one, ${IMAGE_DELIVERY_HINT}` +
      // The default runtime image is in no public registry: where it comes from.
      `${r.images.includes(DEFAULT_RUNTIME_IMAGE) ? `; ${DEFAULT_RUNTIME_IMAGE} is built by \`npm run image\` in a checkout of this release` : ''})`,
    `Checked: server-side dry run of ${r.checked.dryRunObjects} objects and ${r.checked.dryRunPods} Pods; ${r.checked.resourceQuotas} ResourceQuota(s); ${r.checked.limitRanges} LimitRange(s); ${r.checked.permissions} permissions; ${r.checked.references} referenced object(s)`,
  ];
  for (const n of r.notes) lines.push(`Note: ${n}`);
  if (r.ok) lines.push('Preflight passed: nothing found that would stop this application');
  else {
    lines.push(`Preflight found ${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}:`);
    for (const p of r.problems) lines.push(`  - [${p.check}] ${p.message}`);
  }
  return lines;
}

export async function reportPreflight(
  kube: Kube,
  plan: ApplicationPlan,
  out: Output,
  server: ServerSupport,
): Promise<number> {
  const report = await runPreflight(kube, plan, server);
  for (const w of report.warnings) out.warn(w);
  out.result({ ...report }, preflightLines(report));
  return report.ok ? CLI_EXIT.ok : CLI_EXIT.preflightFailed;
}

export async function preflightCommand(args: ParsedArgs, out: Output): Promise<number> {
  const { spec, plan, deploymentFile } = planFromArgs(args, out);
  const kube = await connectKube(
    { kubeconfig: spec.kubeconfig, deploymentFile, untrusted: kubeconfigFromUntrustedFile(args) },
    out,
  );
  try {
    return await reportPreflight(kube, plan, out, await readServerSupport(kube, serverDependentUse(spec)));
  } finally {
    kube.api.close();
  }
}
