// The engine files of this application (`<appId>-engine` ConfigMap), mounted read-only on the
// master and the workers, the runtime's settings (runtime.json), and the workers' Zeta command.

import { zetaCommand, zetaEnvironment } from '../../engine/command';
import { ENGINE_FILES, haMasterAddresses, renderEngineFiles } from '../../engine/files';
import { ENV } from '../../model/reserved';
import { PATHS } from '../../model/spec';
import { addEnv, addMount, addVolume, masterContainer, masterPod, names, objectMeta, workerContainer, workerPod } from '../pod';
import { runtimeSettings } from '../runtime-settings';
import type { FeatureStep, PlanDraft } from '../types';

export const ENGINE_VOLUME = 'seatunnel-engine-config';
export const WORKER_LOG_VOLUME = 'seatunnel-logs';

export const engineConfigStep: FeatureStep = {
  name: 'engine-config',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    const { files } = renderEngineFiles(spec);
    d.configMaps.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: objectMeta(spec, names.engineConfig(spec), 'configuration', 'engine-config'),
      data: { ...files, [ENGINE_FILES.runtime]: `${JSON.stringify(runtimeSettings(spec), null, 2)}\n` },
    });
    for (const pod of [masterPod(d), workerPod(d)]) {
      addVolume(pod, { name: ENGINE_VOLUME, configMap: { name: names.engineConfig(spec) } });
    }
    for (const c of [masterContainer(d), workerContainer(d)]) {
      addMount(c, { name: ENGINE_VOLUME, mountPath: PATHS.engineConfig, readOnly: true });
      addEnv(c, { name: ENV.seatunnelHome, value: spec.seatunnelHome }, { name: ENV.engineConfigDir, value: PATHS.engineConfig });
    }
    // Workers run Zeta directly; the runtime stamps the master's address into their environment.
    const worker = workerContainer(d);
    addVolume(workerPod(d), { name: WORKER_LOG_VOLUME, emptyDir: {} });
    addMount(worker, { name: WORKER_LOG_VOLUME, mountPath: `${PATHS.workDir}/logs` });
    worker.command = zetaCommand(spec, 'worker', { configDir: PATHS.engineConfig, logDir: `${PATHS.workDir}/logs` });
    // Stamped by the runtime with the master's Pod IP and port when it creates each worker; with
    // HA the masters' stable DNS names are known now and nothing is stamped.
    const masters = spec.ha ? haMasterAddresses(spec, spec.ha.masters).join(',') : '';
    addEnv(worker, { name: ENV.masterAddress, value: masters }, { name: ENV.memberList, value: masters });
    addEnv(worker, ...Object.entries(zetaEnvironment()).map(([name, value]) => ({ name, value })));
    return d;
  },
};
