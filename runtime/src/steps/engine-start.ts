// Starting the Zeta master that runs in this Pod (one local master) and waiting for any master's
// REST API to answer (both topologies).

import { EngineUnavailable, type EngineExit } from '../engine/port';
import { RuntimeFailure } from '../outcome';
import { errorMessage } from '../util';
import type { WorkerReconciler } from '../workers/reconciler';
import type { Step } from './context';

/**
 * Resolves when every worker's container runs, or a worker failed or waits for a node or an image
 * (judged over minutes: the barrier reports those waits), or the head start is used up.
 */
export async function workersUnderway(s: Step, reconciler: WorkerReconciler): Promise<void> {
  const { clock, log, settings } = s.deps;
  const began = clock.now();
  const until = began + s.tuning.workerHeadStartMs;
  for (;;) {
    s.interruption.throwIfSet();
    const a = reconciler.assessment;
    if (a && (a.failure || a.timed.size > 0 || a.running >= settings.app.workerCount)) break;
    if (clock.now() >= until) {
      log.info('starting the engine before every worker runs', {
        running: a?.running ?? 0,
        afterMs: Math.round(clock.now() - began),
      });
      return;
    }
    await s.interruption.pause(Math.min(50, until - clock.now()));
  }
  log.info('workers running', { afterMs: Math.round(clock.now() - began) });
}

/** Starts the master's JVM in this Pod; its exit is a happening of the lifecycle. */
export function startEngine(s: Step): void {
  try {
    s.deps.engine.start();
  } catch (e) {
    throw new RuntimeFailure('EngineStartFailed', `the Zeta master could not be started: ${errorMessage(e)}`);
  }
  s.state.engine = 'running';
  void s.deps.engine.exited.then((exit: EngineExit) => s.happen({ type: 'EngineExited', exit }));
}

/** Waits until the engine's REST API answers, within application.startup-timeout-millis. */
export async function waitForEngine(s: Step): Promise<void> {
  const { clock, settings, engine, log } = s.deps;
  const started = clock.now();
  const ac = new AbortController();
  const stop = () => ac.abort();
  s.interruption.signal.addEventListener('abort', stop, { once: true });
  s.ending.addEventListener('abort', stop, { once: true });
  void clock.sleep(settings.app.startupTimeoutMillis, ac.signal).then(stop);
  try {
    await engine.waitReady(ac.signal);
  } catch (e) {
    s.interruption.throwIfSet();
    if (e instanceof EngineUnavailable) {
      throw new RuntimeFailure(
        'EngineStartTimeout',
        `the Zeta master did not answer within ${settings.app.startupTimeoutMillis} ms: ${e.message}`,
      );
    }
    throw e;
  } finally {
    ac.abort();
    s.interruption.signal.removeEventListener('abort', stop);
    s.ending.removeEventListener('abort', stop);
  }
  log.info('engine ready', { afterMs: Math.round(clock.now() - started) });
}
