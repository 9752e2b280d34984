// The runtime's entry point (the master container's command: `node runtime.cjs`). Composition
// root: reads the settings, connects to the API server and the engine, runs the lifecycle, and
// exits with the code contract of EXIT_CODES (0 only for SUCCEEDED).

import * as fs from 'node:fs';
import { readTextFile, ANNOTATIONS, ENV, EXIT_CODES } from 'seatunnel-app/runtime-support';
import { systemClock } from './clock';
import { writeEngineFiles } from './engine/config-files';
import { ZetaEngine } from './engine/zeta';
import { connectKube, type KubeConnection } from './kube/client-node-adapter';
import { runApplication } from './lifecycle';
import { createLogger, type Logger } from './log';
import { outcomeOfError, type Outcome } from './outcome';
import { Reporter } from './report/reporter';
import { loadSettings, RUNTIME_ENV, type Settings } from './settings';
import { startMetricsEndpoint } from './metrics/metrics-endpoint';
import { errorMessage } from './util';

/** SIGTERM grace of the master Pod is 120 s; the runtime is done well before. */
const HARD_STOP_MS = 110_000;

// Regular files of bounded size only: a job config path on a device or a directory is a configuration error.
const io = { readFile: (f: string) => readTextFile(f), listDir: (d: string) => fs.readdirSync(d) };

function peakRssMiB(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** When the settings themselves are bad there is no lifecycle; still tell the Job if possible. */
async function reportEarly(result: Outcome, log: Logger): Promise<void> {
  const ns = process.env[ENV.podNamespace];
  const appId = process.env[ENV.appId];
  if (!ns || !appId) return;
  let conn: KubeConnection | undefined;
  try {
    conn = await connectKube(ns);
    const reporter = new Reporter(
      conn.port,
      { name: appId },
      { podName: process.env[ENV.podName] ?? '' },
      systemClock,
      log,
    );
    const uid = await conn.port.getJob(appId).then(
      (j) => j.metadata?.uid,
      () => undefined,
    );
    if (uid) reporter.setJobUid(uid);
    reporter.annotate({
      phase: 'Failed',
      reason: result.reason,
      message: result.message.slice(0, 4096),
      finishedAt: new Date().toISOString(),
    });
    reporter.event('Warning', 'Failed', `${result.reason}: ${result.message}`);
    await reporter.flush(5000);
  } catch (e) {
    log.warn('could not record the failure on the Job', { error: (e as Error).message, annotation: ANNOTATIONS.phase });
  } finally {
    conn?.close();
  }
}

/**
 * An exception nothing caught (e.g. thrown in a client's socket callback) must not skip the end:
 * while the lifecycle runs it ends the application (InternalError) through the same path as any
 * failure — stop the job, remove the workers, record, exit 3. Outside it, or if the end itself
 * does not finish in time, the process exits 3 at once.
 */
function catchUnexpected(log: Logger): AbortController {
  const unexpected = new AbortController();
  const onError = (e: unknown) => {
    log.error('internal error', { error: String((e as Error)?.stack ?? e) });
    if (!lifecycleRunning) return exitNow(EXIT_CODES.infrastructure);
    if (unexpected.signal.aborted) return;
    unexpected.abort(e);
    setTimeout(() => {
      log.error('cleanup after the internal error did not finish in time; exiting now', { afterMs: HARD_STOP_MS });
      exitNow(EXIT_CODES.infrastructure);
    }, HARD_STOP_MS).unref();
  };
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  return unexpected;
}

let lifecycleRunning = false;

function exitNow(code: number): void {
  process.stderr.write('', () => process.exit(code));
}

async function main(): Promise<number> {
  const log = createLogger(undefined, process.env[RUNTIME_ENV.logLevel] === 'debug');
  const unexpected = catchUnexpected(log);
  const started = performance.now();
  const terminate = new AbortController();
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    signals++;
    if (signals > 1) return log.warn(`${sig} again; already stopping`);
    log.warn(`${sig} received`);
    terminate.abort();
    setTimeout(() => {
      log.error('cleanup did not finish within the grace period; exiting now', { afterMs: HARD_STOP_MS });
      process.exit(EXIT_CODES.canceled);
    }, HARD_STOP_MS).unref();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  let settings: Settings;
  try {
    settings = loadSettings(process.env, io);
  } catch (e) {
    const result = outcomeOfError(e);
    log.error(result.message, { reason: result.reason, exitCode: result.exitCode });
    await reportEarly(result, log);
    return result.exitCode;
  }
  let conn: KubeConnection;
  try {
    conn = await connectKube(settings.pod.namespace);
  } catch (e) {
    const result = outcomeOfError(e);
    log.error(result.message, { reason: result.reason, exitCode: result.exitCode });
    return result.exitCode;
  }
  log.info('settings loaded', {
    startupMs: Math.round(performance.now() - started),
    apiServer: conn.server,
    engineRest: settings.engineRest.candidates
      .map((c) => `${settings.engineRest.host}:${c.port}${c.path}`)
      .join(' or '),
  });
  const engine = new ZetaEngine(settings, process.env, systemClock, log);
  // Metrics are an aid: a port that cannot be bound is logged, and the application runs without them.
  const metrics = await startMetricsEndpoint(settings, process.env, systemClock, log).catch((e: unknown) => {
    log.warn('metrics are not served', { error: errorMessage(e), port: settings.app.metrics?.port });
    return undefined;
  });
  lifecycleRunning = true;
  const result = await runApplication({
    settings,
    env: process.env,
    io,
    kube: conn.port,
    engine,
    ...(metrics ? { observer: metrics.observer } : {}),
    clock: systemClock,
    log,
    terminate: terminate.signal,
    unexpected: unexpected.signal,
    writeEngineFiles: () => {
      const { names, notices } = writeEngineFiles(
        settings.engineConfigDir,
        settings.engineWorkDir,
        settings.pod.masterHost,
        process.env[ENV.userConfigDir] || undefined,
      );
      for (const n of notices) log.warn(n.message, { file: n.file, key: n.key });
      log.info('engine files written', { dir: settings.engineWorkDir, files: names.join(',') });
    },
  });
  lifecycleRunning = false;
  await metrics?.server.close();
  conn.close();
  const mem = process.memoryUsage();
  const mib = (n: number) => Math.round(n / 1024 / 1024);
  log.info('exit', {
    code: result.exitCode,
    state: result.state,
    reason: result.reason,
    uptimeMs: Math.round(performance.now() - started),
    peakRssMiB: peakRssMiB(),
    rssMiB: mib(mem.rss),
    heapUsedMiB: mib(mem.heapUsed),
    heapTotalMiB: mib(mem.heapTotal),
    externalMiB: mib(mem.external),
  });
  return result.exitCode;
}

/**
 * `runtime.cjs engine-files <engine dir> <user config dir> <target dir>`: a worker's init container
 * makes the worker's engine files from kubernetes.config-map the way the master's runtime does.
 */
function engineFilesCommand(args: string[]): never {
  const [engineDir, userDir, targetDir] = args;
  try {
    const { names, notices } = writeEngineFiles(engineDir, targetDir, '', userDir);
    for (const n of notices) process.stdout.write(`${new Date().toISOString()} WARN ${n.message}\n`);
    process.stdout.write(`${new Date().toISOString()} INFO engine files written to ${targetDir}: ${names.join(',')}\n`);
    process.exit(0);
  } catch (e) {
    process.stderr.write(`${new Date().toISOString()} ERROR engine files: ${(e as Error).message}\n`);
    process.exit(EXIT_CODES.configuration);
  }
}

if (process.argv[2] === 'engine-files') engineFilesCommand(process.argv.slice(3));

main().then(exitNow, (e: unknown) => {
  process.stderr.write(
    `${new Date().toISOString()} ERROR runtime: internal error: ${(e as Error)?.stack ?? String(e)}\n`,
  );
  process.exit(EXIT_CODES.infrastructure);
});
