// High availability (docs/ha.md, SeaTunnel #12886): Kubernetes keeps the Pods and a stable
// address, Zeta does election, partition backups and job recovery. Two kinds of master-side Pod:
//   * the masters: a StatefulSet of `application.ha.masters` Pods running Zeta directly, found by
//     each other under the headless Service, restarted and replaced by Kubernetes;
//   * the coordinator: the Job's Pod, the same runtime as without HA, but no Zeta member — it
//     creates the workers, submits once through the ClusterIP Service `<appId>-rest`, follows the
//     job and cleans up. Its Pod may be replaced: the Job retries it (podFailurePolicy below) and
//     the new one re-attaches to the running job by its ID.
// Both take the user's kubernetes.master.* options (the steps put them on masterRolePods); what
// only the masters have, because no runtime starts their Zeta, is added here when the steps are done.
// Everything stays owned by the Job, never by a Pod that can be replaced.

import type { PodSpec, PodTemplateSpec, Probe } from 'kubernetes-types/core/v1';
import { zetaCommand, zetaEnvironment } from '../../engine/command';
import { userFilesManifest } from '../../engine/user-files';
import { ANNOTATIONS, HA_TIMINGS } from '../../contract';
import { LABELS } from '../../model/reserved';
import { PATHS, type ApplicationSpec, type HaSpec } from '../../model/spec';
import { addEnv, kubeletCommand, kubeletLiteral, mainContainer, names, objectMeta, roleSelector } from '../pod';
import { podMetadata, podSkeleton, roleSize } from '../pod-skeleton';
import { spreadPod } from '../spread';
import { COMPLETED_ENGINE_DIR, completeEngineFiles } from '../steps/engine-config';
import type { PlanDraft } from '../types';
import { jobPodFailurePolicy, type MasterTopology } from './topology';

/** The coordinator runs Node.js only; it needs no master-sized resources. */
export const COORDINATOR_RESOURCES = { cpu: '250m', memory: '256Mi' } as const;

/**
 * Hazelcast's own readiness: 200 only once the member has joined the cluster (docs/ha.md). Probed
 * every second: the coordinator submits only once every master is ready, so the period is paid on
 * every start (a master that joins just after a probe waited up to 5 s at a 5 s period). Ten
 * failures in a row, as two at 5 s did, take a master out of the Service.
 */
function readiness(spec: ApplicationSpec): Probe {
  return {
    httpGet: { path: '/hazelcast/health/ready', port: spec.master.port },
    ...HA_TIMINGS.readiness,
  };
}

/**
 * Alive while Hazelcast answers HTTP: a frozen JVM (a long GC pause, a stopped process or VM) still
 * accepts TCP connections — the kernel completes them — so a TCP check never catches it, and the
 * others suspect it only after the 30 s heartbeat timeout. A frozen active master left that long
 * broke the cluster in the engine tier: the new active master did not restore the job, the
 * workers found no data member and shut down, the application failed. Killed after about 10 s
 * unanswered, with a 1 s grace (a frozen process cannot leave gracefully), it is a crash instead:
 * its connections close at once, the others drop it, and it restarts in place — the path the
 * engine tier's crash test proves. The probe's own grace is GA in 1.28 and on by default from
 * 1.25; HA needs 1.26 (lib/submit/admit/server-support.ts).
 */
function liveness(spec: ApplicationSpec): Probe {
  return {
    httpGet: { path: '/hazelcast/health/node-state', port: spec.master.port },
    ...HA_TIMINGS.liveness,
  };
}

/**
 * What the runtime gives the Zeta master it starts (one local master), a master without a runtime
 * carries in its own Pod: Zeta's environment, its command and — with kubernetes.config-map — its
 * completed engine files, made by the same init container as the workers'.
 */
function runZetaDirectly(spec: ApplicationSpec, pod: PodSpec): void {
  const c = mainContainer(pod);
  addEnv(c, ...Object.entries(zetaEnvironment()).map(([name, value]) => ({ name, value: kubeletLiteral(value) })));
  const manifest = userFilesManifest(spec);
  if (manifest) completeEngineFiles(spec, pod, manifest.dir);
  const configDir = manifest ? COMPLETED_ENGINE_DIR : PATHS.engineConfig;
  // Run by the kubelet (no runtime in between): `$(VAR)` in a JVM flag or a path stays literal.
  c.command = kubeletCommand(zetaCommand(spec, 'master', { configDir, logDir: `${PATHS.workDir}/logs` }));
}

function restService(spec: ApplicationSpec): PlanDraft['restService'] {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: objectMeta(spec, names.restService(spec), 'master', 'rest'),
    spec: {
      type: 'ClusterIP',
      selector: roleSelector(spec, 'master'),
      // Ready masters only; any of them answers (a standby forwards to the active master).
      ports: [
        { name: 'rest-v1', port: spec.master.port, targetPort: spec.master.port, protocol: 'TCP' },
        ...(spec.master.restPort !== spec.master.port
          ? [{ name: 'rest', port: spec.master.restPort, targetPort: spec.master.restPort, protocol: 'TCP' }]
          : []),
      ],
    },
  };
}

/** Nothing calls the coordinator; it reaches the masters' REST v2 port (REST v1 shares the member port). */
function coordinatorPolicies(d: PlanDraft): void {
  const spec = d.spec;
  const coordinator = { [LABELS.applicationId]: spec.appId, [LABELS.role]: 'coordinator' };
  d.networkPolicies.push({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: objectMeta(spec, names.coordinatorPolicy(spec), 'configuration', 'network-policy'),
    spec: { podSelector: { matchLabels: coordinator }, policyTypes: ['Ingress'], ingress: [] },
  });
  if (spec.master.restPort === spec.master.port) return;
  const master = d.networkPolicies.find((p) => p.metadata.name === names.masterPolicy(spec));
  master?.spec?.ingress?.push({
    from: [{ podSelector: { matchLabels: { ...coordinator } } }],
    ports: [{ protocol: 'TCP', port: spec.master.restPort }],
  });
}

export function haMasters(spec: ApplicationSpec, ha: HaSpec): MasterTopology {
  const coordinator = podSkeleton(spec, { size: COORDINATOR_RESOURCES, restartPolicy: 'Never', apiToken: true });
  // A StatefulSet's Pods restart in place; the masters never call the API server.
  const masters: PodTemplateSpec & { spec: PodSpec } = {
    metadata: podMetadata(spec, 'master', spec.master),
    spec: podSkeleton(spec, { size: roleSize(spec.master), restartPolicy: 'Always', apiToken: false }),
  };
  return {
    jobPod: { metadata: podMetadata(spec, 'coordinator', spec.master), spec: coordinator },
    zetaMasterPods: [masters.spec],
    // A coordinator that crashes or whose Pod is deleted is started again and re-attaches; the
    // runtime's terminal decisions (job failed, cancelled, workers lost, bad settings) end the Job
    // at once, and so does any exit code but `detached` and a crash's. Evictions, preemption and
    // node drains do not use up the restarts.
    // One more than the restarts: the last coordinator only cleans up (runtime: CoordinatorRestartsExhausted).
    jobRetries: { backoffLimit: ha.coordinatorRestarts + 1, podFailurePolicy: jobPodFailurePolicy('Ignore') },
    // The StatefulSet's container is Zeta itself.
    zetaMasterStartDelayMs: 0,
    zetaMasterHealth: { readinessProbe: readiness(spec), livenessProbe: liveness(spec) },
    complete(d: PlanDraft): void {
      runZetaDirectly(spec, masters.spec);
      spreadPod(masters.spec, spec, 'master');
      d.masters = {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: objectMeta(spec, names.masters(spec), 'master', 'master'),
        spec: {
          replicas: ha.masters,
          serviceName: names.service(spec),
          // All masters start together: Zeta elects the oldest member, no ordering is needed.
          podManagementPolicy: 'Parallel',
          selector: { matchLabels: roleSelector(spec, 'master') },
          template: masters,
        },
      };
      d.restService = restService(spec);
      d.job.metadata.annotations = { ...d.job.metadata.annotations, [ANNOTATIONS.mastersDesired]: String(ha.masters) };
      if (spec.networkPolicyEnabled) coordinatorPolicies(d);
    },
  };
}
