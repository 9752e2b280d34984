// The lifecycle with fakes of both ports on virtual time, for the lifecycle and RBAC unit tests.
import type { SeaTunnelApplicationProps } from 'seatunnel-app/internal/model/props';
import { runtimeSettings } from 'seatunnel-app/internal/plan/runtime-settings';
import { plan } from '../../../test/support/fixtures';
import { runApplication, type LifecycleDeps, type Tuning } from '../../src/lifecycle';
import { memoryLogger } from '../../src/log';
import type { Outcome } from '../../src/outcome';
import type { Settings } from '../../src/settings';
import { FakeClock, FakeEngine, FakeKube, runOn, running } from './fakes';

/** Runs `fn` once, the first time `cond` holds (a step hook for `run`). */
export function once(cond: () => boolean, fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done && cond()) {
      done = true;
      fn();
    }
  };
}

export const SEL = 'seatunnel.apache.org/application-id=app-1,seatunnel.apache.org/role=worker';

export function setup(
  props: Partial<SeaTunnelApplicationProps> = {},
  tuning: Partial<Tuning> = {},
  settingsOverrides: Partial<Settings> = {},
  depsOverrides: Partial<LifecycleDeps> = {},
) {
  const p = plan({
    applicationId: 'app-1',
    workerCount: 3,
    workerSlots: 2,
    startupTimeoutMillis: 60_000,
    jobId: '9223372036854775807',
    ...props,
  });
  const app = runtimeSettings(p.spec);
  const clock = new FakeClock();
  const kube = new FakeKube(clock);
  kube.template = p.workerTemplate;
  kube.masterPod = { metadata: { name: 'app-1-m', uid: 'master-uid' } };
  kube.onCreate = (pod) => kube.update(pod.metadata!.name!, running);
  const engine = new FakeEngine(kube, clock, app.workerSlots);
  const log = memoryLogger();
  const terminate = new AbortController();
  const unexpected = new AbortController();
  const settings: Settings = {
    app,
    pod: { name: 'app-1-m', namespace: 'ns', uid: 'master-uid', ip: '10.0.0.9', masterHost: '10.0.0.9' },
    engineConfigDir: '/etc/engine',
    workDir: '/work',
    engineWorkDir: '/work/engine',
    engineRest: { host: '127.0.0.1', candidates: [{ port: 8080, path: '' }] },
    debug: true,
    ...settingsOverrides,
  };
  const env: Record<string, string> = {
    SEATUNNEL_APPLICATION_JOB_CONFIG: (p.spec.jobConfig as { text: string }).text,
    ROWS: '12345678901234567',
  };
  let engineFilesWritten = 0;
  // Other files and directories the runtime reads in the Pod (e.g. the engine home's connectors/).
  const files = new Map<string, string>();
  const dirs = new Map<string, string[]>();
  const deps = {
    settings,
    env,
    io: {
      // The job config Secret's file, as mounted in the Pod (lib/plan/steps/job-config.ts); a test
      // changes the text through env.SEATUNNEL_APPLICATION_JOB_CONFIG.
      readFile: (f: string) => {
        if (app.jobConfig.kind === 'file' && f === app.jobConfig.path) return env.SEATUNNEL_APPLICATION_JOB_CONFIG;
        const text = files.get(f);
        if (text === undefined) throw new Error(`ENOENT: no such file ${f}`);
        return text;
      },
      listDir: (d: string) => {
        const names = dirs.get(d);
        if (names === undefined) throw new Error(`ENOENT: no such directory ${d}`);
        return names;
      },
    },
    kube,
    engine,
    clock,
    log,
    terminate: terminate.signal,
    unexpected: unexpected.signal,
    writeEngineFiles: () => void engineFilesWritten++,
    tuning,
    ...depsOverrides,
  };
  const run = (onStep?: () => void): Promise<Outcome> => runOn(clock, runApplication(deps), { onStep });
  return {
    p,
    app,
    clock,
    kube,
    engine,
    log,
    terminate,
    unexpected,
    env,
    files,
    dirs,
    run,
    get engineFilesWritten() {
      return engineFilesWritten;
    },
  };
}

/** Runs the application with a job that stays RUNNING; `fn` runs once, right after the submission. */
export function whileRunning(s: ReturnType<typeof setup>, fn: () => void): Promise<Outcome> {
  s.engine.script = () => 'RUNNING';
  return s.run(once(() => s.engine.submits.length === 1, fn));
}
