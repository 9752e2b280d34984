// High availability (docs/ha.md, SeaTunnel #12886): Kubernetes keeps the Pods and a stable
// address, Zeta does election, partition backups and job recovery. Runs after every step that
// shapes "the master Pod" and splits that Pod in two:
//   * the masters: a StatefulSet of `application.ha.masters` Pods running Zeta directly (the
//     Pod every earlier step built, with Zeta's command instead of the runtime's), found by each
//     other under the headless Service, restarted and replaced by Kubernetes;
//   * the coordinator: the Job's Pod, the same runtime as without HA, but no Zeta member — it
//     creates the workers, submits once through the ClusterIP Service `<appId>-rest`, follows the
//     job and cleans up. Its Pod may be replaced: the Job retries it (podFailurePolicy below) and
//     the new one re-attaches to the running job by its ID.
// Everything stays owned by the Job, never by a Pod that can be replaced.

import type { PodSpec, Probe } from 'kubernetes-types/core/v1';
import { HA_TIMINGS } from '../../contract/ha-timings';
import { zetaCommand, zetaEnvironment } from '../../engine/command';
import { ENV, LABELS, TERMINAL_EXIT_CODES } from '../../model/reserved';
import { ANNOTATIONS } from '../../contract';
import { PATHS, type ApplicationSpec } from '../../model/spec';
import {
  addMount,
  addVolume,
  applicationLabels,
  CONTAINER_NAME,
  mainContainer,
  masterPod,
  names,
  objectMeta,
  roleSelector,
  workerPod,
} from '../pod';
import { spreadPod } from '../spread';
import type { FeatureStep, PlanDraft } from '../types';
import { COMPLETED_ENGINE_DIR, COMPLETED_ENGINE_VOLUME, ENGINE_FILES_INIT } from './engine-config';
import { RUNTIME_VOLUME } from './runtime';

/** The coordinator runs Node.js only; it needs no master-sized resources. */
export const COORDINATOR_RESOURCES = { cpu: '250m', memory: '256Mi' } as const;

/** Variables only the runtime reads: the masters run Zeta directly and do not get them. */
const RUNTIME_ONLY_ENV: ReadonlySet<string> = new Set([
  ENV.appId,
  ENV.podName,
  ENV.podNamespace,
  ENV.podUid,
  ENV.podIp,
  ENV.masterHost,
  ENV.workDir,
  ENV.jobConfig,
  ENV.jobConfigFile,
  ENV.userConfigDir,
]);

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

const clone = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;

/** The masters' Pod: everything the earlier steps gave the master Pod, running Zeta itself. */
function mastersPod(spec: ApplicationSpec, master: PodSpec, worker: PodSpec): PodSpec {
  const pod = clone(master);
  const c = mainContainer(pod);
  c.env = [
    ...(c.env ?? []).filter((e) => !RUNTIME_ONLY_ENV.has(e.name)),
    ...Object.entries(zetaEnvironment()).map(([name, value]) => ({ name, value })),
  ];
  c.volumeMounts = (c.volumeMounts ?? []).filter((m) => m.name !== RUNTIME_VOLUME);
  c.readinessProbe = readiness(spec);
  c.livenessProbe = liveness(spec);
  pod.volumes = (pod.volumes ?? []).filter((v) => v.name !== RUNTIME_VOLUME);
  pod.initContainers = (pod.initContainers ?? []).filter(
    (i) => !i.volumeMounts?.some((m) => m.name === RUNTIME_VOLUME),
  );
  const configDir = completeEngineFilesAsWorkers(pod, worker);
  c.command = zetaCommand(spec, 'master', { configDir, logDir: `${PATHS.workDir}/logs` });
  if (pod.initContainers.length === 0) delete pod.initContainers;
  // A StatefulSet's Pods restart in place; the masters never call the API server.
  pod.restartPolicy = 'Always';
  pod.automountServiceAccountToken = false;
  return pod;
}

/**
 * kubernetes.config-map: without HA the master's runtime overlays the user's files when it starts;
 * the HA masters have no runtime, so they complete their files as the workers do — the same init
 * container into the same emptyDir. Returns the directory Zeta reads.
 */
function completeEngineFilesAsWorkers(pod: PodSpec, worker: PodSpec): string {
  const init = worker.initContainers?.find((i) => i.name === ENGINE_FILES_INIT);
  const volume = worker.volumes?.find((v) => v.name === COMPLETED_ENGINE_VOLUME);
  if (!init || !volume) return PATHS.engineConfig;
  (pod.initContainers ??= []).push(clone(init));
  addVolume(pod, clone(volume));
  addMount(mainContainer(pod), { name: COMPLETED_ENGINE_VOLUME, mountPath: COMPLETED_ENGINE_DIR, readOnly: true });
  return COMPLETED_ENGINE_DIR;
}

/** The coordinator: the runtime as without HA, minus the member's port, probes and size. */
function coordinatorPod(master: PodSpec): void {
  const c = mainContainer(master);
  delete c.ports;
  delete c.startupProbe;
  delete c.readinessProbe;
  delete c.livenessProbe;
  c.resources = { requests: { ...COORDINATOR_RESOURCES }, limits: { ...COORDINATOR_RESOURCES } };
}

export const highAvailabilityStep: FeatureStep = {
  name: 'high-availability',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    const ha = spec.ha;
    if (!ha) return d;
    const template = d.job.spec!.template;
    const masterLabels = { ...(template.metadata?.labels ?? {}) };
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
        template: {
          metadata: { ...template.metadata, labels: masterLabels },
          spec: mastersPod(spec, masterPod(d), workerPod(d)),
        },
      },
    };
    spreadPod(d.masters.spec!.template.spec!, spec, 'master');
    d.restService = {
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

    // The Job's Pod becomes the coordinator.
    const coordinatorLabels = {
      ...masterLabels,
      ...applicationLabels(spec, 'coordinator', 'coordinator'),
      ...spec.master.labels,
    };
    template.metadata = { ...template.metadata, labels: coordinatorLabels };
    coordinatorPod(masterPod(d));
    mainContainer(masterPod(d)).name = CONTAINER_NAME;
    d.job.metadata.annotations = { ...d.job.metadata.annotations, [ANNOTATIONS.mastersDesired]: String(ha.masters) };
    const jobSpec = d.job.spec!;
    // A coordinator that crashes or whose Pod is deleted is started again and re-attaches; the
    // runtime's terminal decisions (job failed, cancelled, workers lost, bad settings) end the Job
    // at once, and so does any exit code but `detached` and a crash's.
    jobSpec.backoffLimit = ha.coordinatorRestarts;
    jobSpec.podFailurePolicy = {
      rules: [
        {
          action: 'FailJob',
          onExitCodes: {
            containerName: CONTAINER_NAME,
            operator: 'In',
            values: [...TERMINAL_EXIT_CODES],
          },
        },
        // Evictions, preemption and node drains do not use up the restarts.
        { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
      ],
    };

    if (spec.networkPolicyEnabled) {
      // Nothing calls the coordinator.
      d.networkPolicies.push({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: objectMeta(spec, names.coordinatorPolicy(spec), 'configuration', 'network-policy'),
        spec: {
          podSelector: { matchLabels: { [LABELS.applicationId]: spec.appId, [LABELS.role]: 'coordinator' } },
          policyTypes: ['Ingress'],
          ingress: [],
        },
      });
      // The coordinator reaches the masters' REST v2 port (REST v1 shares the member port, open to the application's Pods).
      if (spec.master.restPort !== spec.master.port) {
        const master = d.networkPolicies.find((p) => p.metadata.name === names.masterPolicy(spec));
        master?.spec?.ingress?.push({
          from: [
            { podSelector: { matchLabels: { [LABELS.applicationId]: spec.appId, [LABELS.role]: 'coordinator' } } },
          ],
          ports: [{ protocol: 'TCP', port: spec.master.restPort }],
        });
      }
    }
    return d;
  },
};
