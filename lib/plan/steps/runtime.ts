// The master container runs our runtime, which starts Zeta and manages the workers. With the
// default `init-container` mode the stock SeaTunnel image is used unchanged: an init container
// from the runtime image copies Node.js and the bundle into a shared volume.

import { ENV } from '../../model/reserved';
import { PATHS } from '../../model/spec';
import { addEnv, addMount, addVolume, masterContainer, masterPod } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const RUNTIME_VOLUME = 'seatunnel-app-runtime';
export const WORK_VOLUME = 'seatunnel-app-work';
/** Inside the runtime image: Node.js and the bundle, copied by the init container. */
export const RUNTIME_IMAGE_DIR = '/seatunnel-app';

const PROBE_PERIOD_SECONDS = 5;

export const runtimeStep: FeatureStep = {
  name: 'runtime',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    const pod = masterPod(d);
    const c = masterContainer(d);
    c.command = [`${PATHS.runtimeDir}/bin/node`, `${PATHS.runtimeDir}/runtime.cjs`];
    c.ports = [{ name: 'hazelcast', containerPort: spec.master.port, protocol: 'TCP' }];
    addEnv(
      c,
      { name: ENV.appId, value: spec.appId },
      { name: ENV.podName, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: ENV.podNamespace, valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: ENV.podUid, valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } },
      { name: ENV.podIp, valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: ENV.masterHost, valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    );
    addVolume(pod, { name: WORK_VOLUME, emptyDir: {} });
    addMount(c, { name: WORK_VOLUME, mountPath: PATHS.workDir });
    addEnv(c, { name: ENV.workDir, value: PATHS.workDir });
    if (spec.runtime.mode === 'init-container') {
      addVolume(pod, { name: RUNTIME_VOLUME, emptyDir: {} });
      addMount(c, { name: RUNTIME_VOLUME, mountPath: PATHS.runtimeDir, readOnly: true });
      const small = { cpu: '100m', memory: '64Mi' };
      (pod.initContainers ??= []).push({
        name: 'install-runtime',
        image: spec.runtime.image,
        imagePullPolicy: spec.runtime.imagePullPolicy,
        // Not `cp -a`: as a non-root user (restricted Pod Security) it fails setting the times of
        // the emptyDir it does not own ("preserving times for '/opt/seatunnel-app/.'"), seen on a
        // real node. -R keeps the modes (the node binary stays executable) and leaves the mount point alone.
        command: ['cp', '-R', `${RUNTIME_IMAGE_DIR}/.`, `${PATHS.runtimeDir}/`],
        resources: { requests: { ...small }, limits: { ...small } },
        securityContext: { allowPrivilegeEscalation: false },
        volumeMounts: [{ name: RUNTIME_VOLUME, mountPath: PATHS.runtimeDir }],
      });
    }
    // TCP probes on the Hazelcast port: the startup budget is application.startup-timeout-millis.
    const tcp = { tcpSocket: { port: spec.master.port } };
    c.startupProbe = {
      ...tcp,
      periodSeconds: PROBE_PERIOD_SECONDS,
      timeoutSeconds: 2,
      failureThreshold: Math.max(1, Math.ceil(spec.startupTimeoutMillis / (PROBE_PERIOD_SECONDS * 1000))),
    };
    c.readinessProbe = { ...tcp, periodSeconds: 10, timeoutSeconds: 2, failureThreshold: 3 };
    c.livenessProbe = { ...tcp, periodSeconds: 10, timeoutSeconds: 2, failureThreshold: 3 };
    return d;
  },
};
