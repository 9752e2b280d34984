// A Job Pod (the master, or with HA the coordinator) whose image cannot be pulled never starts the
// runtime, so nothing in the cluster ends the application: the kubelet retries the pull forever and
// the Job stays active. `status` gives up on it after the time a worker may fail to pull
// (application.image-pull-retry-millis, recorded on the Job by the plan) and reports it FAILED with
// ImagePullFailed, so `status --wait` returns and the user learns what to do. Pure.

import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { ANNOTATIONS } from '../../contract';
import { defaultOf } from '../../model/options';

/** Waiting reasons of a pull the kubelet keeps retrying. */
export const PULL_RETRIED = new Set(['ErrImagePull', 'ImagePullBackOff']);

/** What to do, in one sentence (never a registry's name: the user's registry is theirs). */
export const IMAGE_DELIVERY_HINT =
  'load the image into the container runtime of the nodes, or push it to a registry the nodes can reach and name it there (docs/runtime.md, "Delivery")';

/** The same for the runtime image, which no public registry serves: where it comes from. */
export const RUNTIME_IMAGE_DELIVERY_HINT =
  'build the runtime image with `npm run image` in a checkout of this release and load it into the container runtime of the nodes, or push it to a registry the nodes can reach and name it in kubernetes.runtime.image (docs/runtime.md, "Delivery")';

export interface ImagePullGiveUp {
  readonly reason: 'ImagePullFailed';
  readonly message: string;
}

/** The bound the plan recorded on the Job; the option's default for a Job submitted before it was recorded. */
export function imagePullBoundMs(job: Job): number {
  const v = job.metadata?.annotations?.[ANNOTATIONS.imagePullRetryMillis];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : Number(defaultOf('imagePullRetryMillis'));
}

/** Since when the Pod has been on its node (the kubelet's start), else since it was created. */
function onNodeSince(pod: Pod): number | undefined {
  const t = pod.status?.startTime ?? pod.metadata?.creationTimestamp;
  const ms = t ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * ImagePullFailed when a container (init containers included) of `pod` waits on a failing pull and
 * the Pod has been on its node for longer than `boundMs` at `now`; undefined otherwise.
 */
export function judgeJobPodImagePull(
  pod: Pod,
  boundMs: number,
  now: number,
  appId: string,
): ImagePullGiveUp | undefined {
  const since = onNodeSince(pod);
  if (since === undefined || now - since < boundMs) return undefined;
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const stuck = statuses.find((s) => PULL_RETRIED.has(s.state?.waiting?.reason ?? ''));
  if (!stuck) return undefined;
  const spec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find(
    (c) => c.name === stuck.name,
  );
  const image = spec?.image ?? stuck.image;
  const w = stuck.state!.waiting!;
  const seconds = Math.round((now - since) / 1000);
  return {
    reason: 'ImagePullFailed',
    message:
      `master Pod ${pod.metadata?.name}: container "${stuck.name}" could not pull image ${image ? `"${image}" ` : ''}` +
      `for ${seconds} s (${w.reason}${w.message ? `: ${w.message}` : ''}); ` +
      `${stuck.name === 'install-runtime' ? RUNTIME_IMAGE_DELIVERY_HINT : IMAGE_DELIVERY_HINT}, ` +
      `then \`seatunnel-app cancel --id ${appId}\` and submit again`,
  };
}
