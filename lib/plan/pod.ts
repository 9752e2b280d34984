// Small accessors and editors for the Pod specs inside a draft. Steps pick the kind of Pod an edit
// is for with the selectors below, and edit through addVolume/addMount/addEnv, so that an edit
// never drops what an earlier step put there and never lands twice.

import type { Container, EnvVar, PodSpec, Volume, VolumeMount } from 'kubernetes-types/core/v1';
import { LABELS, type RoleLabel } from '../model/reserved';
import type { ApplicationSpec } from '../model/spec';
import { haMasterSetName, podMonitorName } from '../model/ids';
import { fixedLabels, replaceableLabels } from './recommended-labels';
import type { PlanDraft } from './types';

export const CONTAINER_NAME = 'seatunnel';

/**
 * The Pods that run a Zeta master member: with one local master the Job's Pod, with HA the
 * masters' StatefulSet Pod template (lib/plan/topology).
 */
export const zetaMasterPods = (d: PlanDraft): readonly PodSpec[] => d.topology.zetaMasterPods;

/** The Pod that runs the runtime: always the Job's (with HA, the coordinator). */
export const runtimePod = (d: PlanDraft): PodSpec => d.topology.jobPod.spec;

/**
 * The Pods of the master role, each once: the Zeta masters and the runtime's Pod (one and the same
 * with one local master). The user's kubernetes.master.* options land here, and whatever both the
 * runtime and a Zeta master read.
 */
export const masterRolePods = (d: PlanDraft): readonly PodSpec[] => [...new Set([runtimePod(d), ...zetaMasterPods(d)])];

export function workerPod(d: PlanDraft): PodSpec {
  const spec = d.workerTemplate.template?.spec;
  if (!spec) throw new Error('plan: the worker template has no Pod spec yet (the basic step must run first)');
  return spec;
}

/** Every Pod of the application: the master role's, then the workers'. */
export const allPods = (d: PlanDraft): readonly PodSpec[] => [...masterRolePods(d), workerPod(d)];

export function mainContainer(pod: PodSpec): Container {
  const c = pod.containers.find((x) => x.name === CONTAINER_NAME);
  if (!c) throw new Error(`plan: the Pod has no "${CONTAINER_NAME}" container`);
  return c;
}

export const runtimeContainer = (d: PlanDraft): Container => mainContainer(runtimePod(d));

/**
 * What an init container that prepares `pod` asks for: its main container's size. A Pod's
 * effective request is the larger of its largest init container and the sum of its containers, so
 * this takes no more room on a node or in a quota than the Pod already does, and the preparation
 * runs at the main container's speed: at 100m, copying Node.js into the master Pod took 1.8 s on a
 * real node (bench/e2e --node), most of the master Pod's start.
 */
export function initContainerResources(pod: PodSpec): Container['resources'] {
  const r = mainContainer(pod).resources;
  if (!r?.requests || !r.limits) throw new Error('plan: the main container has no size yet (the Pod skeleton sets it)');
  return { requests: { ...r.requests }, limits: { ...r.limits } };
}
export const workerContainer = (d: PlanDraft): Container => mainContainer(workerPod(d));

/** The Pods of a role as the user names it (`roles` of a mounted ConfigMap or Secret). */
export function podsOfRole(d: PlanDraft, role: 'master' | 'worker'): readonly PodSpec[] {
  return role === 'master' ? masterRolePods(d) : [workerPod(d)];
}

export function addVolume(pod: PodSpec, volume: Volume): void {
  const volumes = (pod.volumes ??= []);
  if (volumes.some((v) => v.name === volume.name)) throw new Error(`plan: duplicate volume "${volume.name}"`);
  volumes.push(volume);
}

export function addMount(container: Container, mount: VolumeMount): void {
  const mounts = (container.volumeMounts ??= []);
  if (mounts.some((m) => m.mountPath === mount.mountPath)) throw new Error(`plan: two mounts at "${mount.mountPath}"`);
  mounts.push(mount);
}

export function addEnv(container: Container, ...vars: EnvVar[]): void {
  const env = (container.env ??= []);
  for (const v of vars) {
    if (env.some((e) => e.name === v.name)) throw new Error(`plan: environment variable "${v.name}" set twice`);
    env.push(v);
  }
}

/**
 * `s` as a kubelet literal: the kubelet expands `$(VAR)` and turns `$$` into `$` in env values,
 * command and args (k8s.io/kubernetes third_party/forked/golang/expansion), so every `$` is
 * doubled — its own escape — and the container receives exactly `s`.
 */
export function kubeletLiteral(s: string): string {
  return s.replaceAll('$', () => '$$');
}

/** A command line the kubelet runs, every argument a kubelet literal (JVM flags, paths under seatunnel-home). */
export function kubeletCommand(argv: readonly string[]): string[] {
  return argv.map(kubeletLiteral);
}

/**
 * The labels every object of the application carries: the user's (which may replace part-of and
 * version), SeaTunnel's application-id and role (`role`), and the recommended app.kubernetes.io ones.
 */
export function applicationLabels(spec: ApplicationSpec, role: RoleLabel, component: string): Record<string, string> {
  return {
    ...replaceableLabels(spec),
    ...spec.labels,
    [LABELS.applicationId]: spec.appId,
    [LABELS.role]: role,
    ...fixedLabels(spec.appId, component),
  };
}

/** Metadata of a namespaced object of the application. */
export function objectMeta(spec: ApplicationSpec, name: string, role: RoleLabel, component: string) {
  return {
    name,
    namespace: spec.namespace,
    labels: applicationLabels(spec, role, component),
    ...(Object.keys(spec.annotations).length ? { annotations: { ...spec.annotations } } : {}),
  };
}

/** Selector of the application's Pods of one role (never the Job controller's own labels). */
export function roleSelector(spec: ApplicationSpec, role: 'master' | 'worker'): Record<string, string> {
  return { [LABELS.applicationId]: spec.appId, [LABELS.role]: role };
}

/**
 * Labels that select exactly the runtime's Pod: the application's, with the Job Pod's role (master;
 * with HA coordinator). The metrics NetworkPolicy and the PodMonitor select it by these.
 */
export function runtimePodSelector(d: PlanDraft): Record<string, string> {
  const role = d.topology.jobPod.metadata?.labels?.[LABELS.role];
  if (!role) throw new Error('plan: the Job Pod has no role label');
  return { [LABELS.applicationId]: d.spec.appId, [LABELS.role]: role };
}

/** Names of the generated objects, derived from the application ID. */
export const names = {
  job: (spec: ApplicationSpec) => spec.appId,
  service: (spec: ApplicationSpec) => spec.appId,
  engineConfig: (spec: ApplicationSpec) => `${spec.appId}-engine`,
  /** The inline job config's Secret: a dot, which no `<appId>-<entry>` Secret of the user's has. */
  jobConfig: (spec: ApplicationSpec) => `${spec.appId}.job-config`,
  workerTemplate: (spec: ApplicationSpec) => `${spec.appId}-worker`,
  role: (spec: ApplicationSpec) => `${spec.appId}-runtime`,
  masterPolicy: (spec: ApplicationSpec) => `${spec.appId}-master`,
  workerPolicy: (spec: ApplicationSpec) => `${spec.appId}-worker`,
  /** With HA: the masters' StatefulSet, the REST Service and the coordinator's NetworkPolicy. */
  masters: (spec: ApplicationSpec) => haMasterSetName(spec.appId),
  restService: (spec: ApplicationSpec) => `${spec.appId}-rest`,
  coordinatorPolicy: (spec: ApplicationSpec) => `${spec.appId}-coordinator`,
  /** Who may scrape the runtime's /metrics (only when the user names scrapers). */
  metricsPolicy: (spec: ApplicationSpec) => `${spec.appId}-metrics`,
  /** The Prometheus operator's PodMonitor of the same endpoint (kubernetes.metrics.pod-monitor). */
  podMonitor: (spec: ApplicationSpec) => podMonitorName(spec.appId),
  /** The n-th worker Pod (n starts at 1), as SeaTunnel names them. */
  worker: (appId: string, n: number) => `${appId}-worker-${n}`,
};
