// How a watch ended, as the runtime's two watch loops (the worker Pods' snapshot store and the own
// Job's watch) both read it: an ERROR event or a closed stream with 410 Gone means the
// resourceVersion expired (read again, then watch anew); a clean close means resume from the last
// resourceVersion; anything else is an error to back off from.

import { KubeApiError } from './port';

export type WatchEnd = { kind: 'closed' } | { kind: 'expired' } | { kind: 'error'; error: Error };

export function isExpired(e: unknown): boolean {
  return e instanceof KubeApiError && (e.status === 410 || e.reason === 'Expired' || e.reason === 'Gone');
}

/** The end an ERROR watch event means; its object is a meta/v1 Status. */
export function endOfErrorEvent(object: unknown): WatchEnd {
  const status = object as { code?: number; reason?: string; message?: string } | undefined;
  const error = new KubeApiError(status?.code ?? 0, status?.reason ?? '', `watch: ${status?.message ?? 'ERROR event'}`);
  return isExpired(error) ? { kind: 'expired' } : { kind: 'error', error };
}

/** The end a closed watch stream means: clean (the server's timeout) or with an error. */
export function endOfClose(error?: Error): WatchEnd {
  if (!error) return { kind: 'closed' };
  return isExpired(error) ? { kind: 'expired' } : { kind: 'error', error };
}
