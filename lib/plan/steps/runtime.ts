// The runtime's Pod (the Job's): our runtime runs in its main container — with one local master it
// starts Zeta's master there, with HA it coordinates the masters. With the default `init-container`
// mode the stock SeaTunnel image is used unchanged: an init container from the runtime image copies
// Node.js and the bundle into a shared volume. Everything here is the runtime's alone: a test
// (test/unit/plan/high-availability.test.ts) fails when any of it reaches the HA masters.

import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import { ENV } from '../../model/reserved';
import type { ApplicationSpec } from '../../model/spec';
import { PATHS } from '../../model/spec';
import { addEnv, addMount, addVolume, initContainerResources, runtimeContainer, runtimePod } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const RUNTIME_VOLUME = 'seatunnel-app-runtime';
/** The init container that installs the runtime from the runtime image. */
export const INSTALL_RUNTIME_INIT = 'install-runtime';
/** Inside the runtime image: Node.js and the bundle, copied by the init container. */
export const RUNTIME_IMAGE_DIR = '/seatunnel-app';

export const runtimeStep: FeatureStep = {
  name: 'runtime',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    const pod = runtimePod(d);
    const c = runtimeContainer(d);
    c.command = [`${PATHS.runtimeDir}/bin/node`, `${PATHS.runtimeDir}/runtime.cjs`];
    addEnv(
      c,
      { name: ENV.appId, value: spec.appId },
      { name: ENV.podName, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: ENV.podNamespace, valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: ENV.podUid, valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } },
      { name: ENV.podIp, valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: ENV.masterHost, valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    );
    // The work directory itself is the master role's (engine-config step): Zeta's logs go there too.
    addEnv(c, { name: ENV.workDir, value: PATHS.workDir });
    if (spec.runtime.mode === 'init-container') {
      addVolume(pod, { name: RUNTIME_VOLUME, emptyDir: {} });
      addMount(c, { name: RUNTIME_VOLUME, mountPath: PATHS.runtimeDir, readOnly: true });
      (pod.initContainers ??= []).push(installRuntimeContainer(spec, pod));
    }
    return d;
  },
};

/**
 * The init container that copies Node.js and the bundle from the runtime image into RUNTIME_VOLUME
 * (mounted at PATHS.runtimeDir), from where they run in the SeaTunnel image: the runtime image has
 * no libc to run them itself. Also used where a worker or an HA master runs `engine-files`.
 * Sized as `pod`'s main container (initContainerResources): the copy is ~100 MB.
 */
export function installRuntimeContainer(spec: ApplicationSpec, pod: PodSpec): Container {
  return {
    name: INSTALL_RUNTIME_INIT,
    image: spec.runtime.image,
    imagePullPolicy: spec.runtime.imagePullPolicy,
    // The runtime image has no shell and no cp: its static install-runtime copies the files with
    // their modes (the node binary stays executable) and leaves the mount point's owner and times
    // alone, which a non-root user (restricted Pod Security) could not change.
    command: [`${RUNTIME_IMAGE_DIR}/bin/install-runtime`, RUNTIME_IMAGE_DIR, PATHS.runtimeDir],
    resources: initContainerResources(pod),
    securityContext: { allowPrivilegeEscalation: false },
    volumeMounts: [{ name: RUNTIME_VOLUME, mountPath: PATHS.runtimeDir }],
  };
}
