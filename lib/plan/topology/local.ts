// One local master (docs/runtime.md): the Job's single Pod runs the runtime, which starts Zeta's
// master as its child process and supervises it. The Pod is the Zeta master's and the runtime's
// at once; nothing else exists, and a lost Pod is the application's end.

import type { Probe } from 'kubernetes-types/core/v1';
import { LOCAL_MASTER_START_DELAY_MS } from '../../contract/ha-timings';
import type { ApplicationSpec } from '../../model/spec';
import { podMetadata, podSkeleton, roleSize } from '../pod-skeleton';
import { jobPodFailurePolicy, type MasterTopology } from './topology';

/** TCP on the Hazelcast port: the runtime itself follows Zeta; the kubelet catches a hung Pod. */
function tcpHealth(spec: ApplicationSpec): Probe {
  return { tcpSocket: { port: spec.master.port }, periodSeconds: 10, timeoutSeconds: 2, failureThreshold: 3 };
}

export function localMaster(spec: ApplicationSpec): MasterTopology {
  const pod = podSkeleton(spec, { size: roleSize(spec.master), restartPolicy: 'Never', apiToken: true });
  return {
    jobPod: { metadata: podMetadata(spec, 'master', spec.master), spec: pod },
    zetaMasterPods: [pod],
    // Job retries are never used as implicit HA: a new Pod would start a new cluster and submit again.
    jobRetries: { backoffLimit: 0, podFailurePolicy: jobPodFailurePolicy('Count') },
    // The runtime starts Zeta after the workers' head start: the startup probe waits that much longer.
    zetaMasterStartDelayMs: LOCAL_MASTER_START_DELAY_MS,
    zetaMasterHealth: { readinessProbe: tcpHealth(spec), livenessProbe: tcpHealth(spec) },
    complete() {},
  };
}
