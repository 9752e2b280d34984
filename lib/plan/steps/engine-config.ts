// The engine files of this application (`<appId>-engine` ConfigMap), mounted read-only on the
// master role's Pods and the workers, the runtime's settings (runtime.json), the workers' Zeta
// command, and the master role's work directory, where the completed engine files and the Zeta
// master's logs go.

import type { PodSpec } from 'kubernetes-types/core/v1';
import { zetaCommand, zetaEnvironment } from '../../engine/command';
import { ENGINE_FILES, haMasterAddresses, renderEngineFiles } from '../../engine/files';
import { USER_FILES_MANIFEST, userFilesManifest } from '../../engine/user-files';
import { ENV } from '../../model/reserved';
import { PATHS, type ApplicationSpec } from '../../model/spec';
import {
  addEnv,
  addMount,
  addVolume,
  initContainerResources,
  kubeletCommand,
  kubeletLiteral,
  mainContainer,
  masterRolePods,
  names,
  objectMeta,
  runtimeContainer,
  workerContainer,
  workerPod,
} from '../pod';
import { runtimeSettings } from '../runtime-settings';
import type { FeatureStep, PlanDraft } from '../types';
import { installRuntimeContainer, RUNTIME_VOLUME } from './runtime';

export const ENGINE_VOLUME = 'seatunnel-engine-config';
/** The master role's writable directory (PATHS.workDir): the runtime's files, Zeta's logs. */
export const WORK_VOLUME = 'seatunnel-app-work';
export const WORKER_LOG_VOLUME = 'seatunnel-logs';
/** kubernetes.config-map, mounted where SeaTunnel keeps its config. */
export const USER_CONFIG_VOLUME = 'seatunnel-config';
/** A Zeta member's completed engine files when kubernetes.config-map is set (workers; with HA, masters). */
export const COMPLETED_ENGINE_VOLUME = 'seatunnel-engine-files';
export const COMPLETED_ENGINE_DIR = `${PATHS.workDir}/engine`;
/** The init container that completes them (`runtime.cjs engine-files`). */
export const ENGINE_FILES_INIT = 'engine-files';

export const engineConfigStep: FeatureStep = {
  name: 'engine-config',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    const { files } = renderEngineFiles(spec);
    const manifest = userFilesManifest(spec);
    d.configMaps.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: objectMeta(spec, names.engineConfig(spec), 'configuration', 'engine-config'),
      data: {
        ...files,
        [ENGINE_FILES.runtime]: `${JSON.stringify(runtimeSettings(spec), null, 2)}\n`,
        ...(manifest ? { [USER_FILES_MANIFEST]: `${JSON.stringify(manifest, null, 2)}\n` } : {}),
      },
    });
    const pods = [...masterRolePods(d), workerPod(d)];
    for (const pod of pods) {
      addVolume(pod, { name: ENGINE_VOLUME, configMap: { name: names.engineConfig(spec) } });
    }
    for (const c of pods.map(mainContainer)) {
      addMount(c, { name: ENGINE_VOLUME, mountPath: PATHS.engineConfig, readOnly: true });
      addEnv(
        c,
        { name: ENV.seatunnelHome, value: kubeletLiteral(spec.seatunnelHome) },
        { name: ENV.engineConfigDir, value: PATHS.engineConfig },
      );
    }
    // Workers run Zeta directly; the runtime stamps the master's address into their environment.
    const worker = workerContainer(d);
    addVolume(workerPod(d), { name: WORKER_LOG_VOLUME, emptyDir: {} });
    addMount(worker, { name: WORKER_LOG_VOLUME, mountPath: `${PATHS.workDir}/logs` });
    const configDir = manifest ? COMPLETED_ENGINE_DIR : PATHS.engineConfig;
    // Run by the kubelet, which would expand `$(VAR)` in a JVM flag or a path (issue 27, item 11).
    worker.command = kubeletCommand(zetaCommand(spec, 'worker', { configDir, logDir: `${PATHS.workDir}/logs` }));
    if (manifest) userConfigMap(d, manifest.dir);
    // Stamped by the runtime with the master's Pod IP and port when it creates each worker; with
    // HA the masters' stable DNS names are known now and nothing is stamped.
    const masters = spec.ha ? haMasterAddresses(spec, spec.ha.masters).join(',') : '';
    addEnv(worker, { name: ENV.masterAddress, value: masters }, { name: ENV.memberList, value: masters });
    addEnv(
      worker,
      ...Object.entries(zetaEnvironment()).map(([name, value]) => ({ name, value: kubeletLiteral(value) })),
    );
    for (const pod of masterRolePods(d)) {
      addVolume(pod, { name: WORK_VOLUME, emptyDir: {} });
      addMount(mainContainer(pod), { name: WORK_VOLUME, mountPath: PATHS.workDir });
    }
    return d;
  },
};

/**
 * kubernetes.config-map: mounted read-only at `<seatunnel-home>/config` on both roles, as in
 * SeaTunnel. The runtime overlays it on the generated files when it starts Zeta; a worker has no
 * runtime, so an init container runs the same code (`runtime.cjs engine-files`) into an emptyDir
 * the worker's Zeta reads (with HA the masters do the same: lib/plan/topology/high-availability.ts).
 */
function userConfigMap(d: PlanDraft, dir: string): void {
  const spec = d.spec;
  const name = spec.runtimeConfigMap!;
  const pods = [...masterRolePods(d), workerPod(d)];
  for (const pod of pods) addVolume(pod, { name: USER_CONFIG_VOLUME, configMap: { name } });
  for (const c of pods.map(mainContainer)) addMount(c, { name: USER_CONFIG_VOLUME, mountPath: dir, readOnly: true });
  addEnv(runtimeContainer(d), { name: ENV.userConfigDir, value: dir });
  completeEngineFiles(spec, workerPod(d), dir);
}

/**
 * Makes `pod`'s Zeta read its engine files completed with kubernetes.config-map (mounted at `dir`)
 * from COMPLETED_ENGINE_DIR, filled before it starts by the `engine-files` init container.
 */
export function completeEngineFiles(spec: ApplicationSpec, pod: PodSpec, dir: string): void {
  addVolume(pod, { name: COMPLETED_ENGINE_VOLUME, emptyDir: {} });
  addMount(mainContainer(pod), { name: COMPLETED_ENGINE_VOLUME, mountPath: COMPLETED_ENGINE_DIR, readOnly: true });
  // The runtime's code runs in the SeaTunnel image, as in the master container: the runtime image
  // has no libc, so in init-container mode install-runtime copies Node.js and the bundle in first.
  const installed = spec.runtime.mode === 'init-container';
  if (installed) {
    addVolume(pod, { name: RUNTIME_VOLUME, emptyDir: {} });
    (pod.initContainers ??= []).push(installRuntimeContainer(spec, pod));
  }
  // Node.js reading a few small files, at the main container's size as install-runtime.
  (pod.initContainers ??= []).push({
    name: ENGINE_FILES_INIT,
    image: spec.image,
    imagePullPolicy: spec.imagePullPolicy,
    command: kubeletCommand([
      `${PATHS.runtimeDir}/bin/node`,
      `${PATHS.runtimeDir}/runtime.cjs`,
      ENGINE_FILES_INIT,
      PATHS.engineConfig,
      dir,
      COMPLETED_ENGINE_DIR,
    ]),
    resources: initContainerResources(pod),
    volumeMounts: [
      ...(installed ? [{ name: RUNTIME_VOLUME, mountPath: PATHS.runtimeDir, readOnly: true }] : []),
      { name: ENGINE_VOLUME, mountPath: PATHS.engineConfig, readOnly: true },
      { name: USER_CONFIG_VOLUME, mountPath: dir, readOnly: true },
      { name: COMPLETED_ENGINE_VOLUME, mountPath: COMPLETED_ENGINE_DIR },
    ],
  });
}
