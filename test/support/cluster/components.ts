// The control plane's processes as seen from a test: restarting the API server, their memory,
// and their log tails attached to a failing test.
import { componentLogTails as tailsOf } from '../../../tools/local-stack/control-plane';
import { controlRequest } from '../../../tools/local-stack/control-server';
import { clusterInfo } from './access';

/**
 * Restarts the shared API server (same port and flags) and waits until it is ready. Every
 * resourceVersion from before the restart is then expired for watches (410 Gone), as after a real
 * restart. Open connections of every client break; components reconnect by themselves.
 */
export async function restartApiServer(): Promise<void> {
  const { control } = clusterInfo();
  if (!control)
    throw new Error(
      'restartApiServer: this control plane has no control endpoint (started outside globalSetup/dev-cluster?)',
    );
  await controlRequest(control, 'POST', '/kube-apiserver/restart');
}

/** Resident memory per control-plane component in bytes (from the owning process). */
export async function controlPlaneMemory(): Promise<Record<string, number>> {
  const { control } = clusterInfo();
  if (!control) throw new Error('controlPlaneMemory: no control endpoint');
  return controlRequest(control, 'GET', '/memory');
}

/** The last lines of every component's log. */
export function componentLogTails(lines = 30): string {
  return tailsOf(clusterInfo(), lines);
}

/**
 * Wraps a test body: if it throws, the error message gets the component log tails appended, so a
 * failing cluster test shows what etcd/apiserver/controllers/scheduler/kwok were doing.
 */
export function withComponentLogs<A extends unknown[], T>(
  fn: (...args: A) => Promise<T>,
  lines = 30,
): (...args: A) => Promise<T> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (e) {
      let tails: string;
      try {
        tails = componentLogTails(lines);
      } catch (inner) {
        tails = `(no component logs: ${(inner as Error).message})`;
      }
      if (e instanceof Error) {
        e.message = `${e.message}\n\n===== control-plane component logs (last ${lines} lines each) =====\n${tails}`;
        throw e;
      }
      throw new Error(`${String(e)}\n\n${tails}`, { cause: e });
    }
  };
}
