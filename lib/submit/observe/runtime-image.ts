// Which build of the runtime image a node ran. The default `kubernetes.runtime.image` is a tag
// (docs/runtime.md, "Delivery": a digest would not resolve to a loaded image), so a node that kept
// another build under the same tag would run it silently. The package records the image it expects
// (runtime-image.json, written by `npm run image`); the kubelet reports, for the master Pod's
// install-runtime container, the image it ran: the image ID (the config's digest) for a loaded
// image, `name@<manifest digest>` for a pulled one. Pure, but for reading the record.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pod } from 'kubernetes-types/core/v1';

export interface RuntimeImageRecord {
  /** The tag the record is for (the default kubernetes.runtime.image). */
  readonly ref: string;
  /** sha256 of the image config. */
  readonly imageId: string;
  /** sha256 of the OCI manifest. */
  readonly manifestDigest: string;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** The record in the package root `root`, or undefined when there is none (a checkout before `npm run image`) or it is not one. */
export function readRuntimeImageRecord(root: string): RuntimeImageRecord | undefined {
  const file = join(root, 'runtime-image.json');
  if (!existsSync(file)) return undefined;
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (typeof r.ref !== 'string' || typeof r.imageId !== 'string' || typeof r.manifestDigest !== 'string')
      return undefined;
    if (!DIGEST.test(r.imageId) || !DIGEST.test(r.manifestDigest)) return undefined;
    return { ref: r.ref, imageId: r.imageId, manifestDigest: r.manifestDigest };
  } catch {
    return undefined;
  }
}

/**
 * A sentence when the master Pod's install-runtime ran the recorded tag from another build; undefined
 * when it ran this release's, another image name (the user chose it), or nothing is known yet.
 */
export function runtimeImageMismatch(pod: Pod, expected: RuntimeImageRecord): string | undefined {
  const spec = pod.spec?.initContainers?.find((c) => c.name === 'install-runtime');
  const status = pod.status?.initContainerStatuses?.find((c) => c.name === 'install-runtime');
  if (spec?.image !== expected.ref || !status?.imageID) return undefined;
  const ran = status.imageID;
  if (ran === expected.imageId || ran.endsWith(`@${expected.imageId}`) || ran.endsWith(`@${expected.manifestDigest}`))
    return undefined;
  const node = pod.spec?.nodeName ? ` on node ${pod.spec.nodeName}` : '';
  return (
    `the runtime image ${expected.ref}${node} is another build than this release's (it ran ${ran}, this release's is ${expected.imageId}): ` +
    `load this release's image there (\`npm run image\`; docs/runtime.md, "Delivery")`
  );
}
