// The one error of a Kubernetes API call, for the CLI and the runtime alike: an HTTP error status,
// or no usable answer at all (status 0: refused, reset, timed out, body over the cap). Callers
// decide by two questions, not by codes: may it have taken effect (`ambiguous`), and is it worth
// trying again (`transient`).

/** Whether the request reached the server. Only "no" makes a failed create certainly harmless. */
export type Sent = 'no' | 'maybe';

export class KubeApiError extends Error {
  constructor(
    /** HTTP status; 0 when there was no usable answer. */
    readonly status: number,
    /** Kubernetes Status reason (NotFound, AlreadyExists, Forbidden, …) or, for status 0, the transport's code (ECONNREFUSED, ETIMEDOUT, …). */
    readonly reason: string,
    /** The server's (or the transport's) message. */
    readonly detail: string,
    /** The request, for messages: "GET /api/v1/…". */
    readonly request?: { readonly method: string; readonly path: string },
    /** For status 0: whether the request may have reached the server. */
    readonly sent: Sent = 'maybe',
  ) {
    super(`${request ? `${request.method} ${request.path}: ` : ''}${describeStatus(status, reason)}: ${detail}`);
    this.name = 'KubeApiError';
  }

  /**
   * The request may or may not have taken effect: no answer after it was sent (timeout, dropped
   * connection) or a server error. A create that failed so must be looked up before rolling back.
   */
  get ambiguous(): boolean {
    return (this.status === 0 && this.sent === 'maybe') || this.status >= 500;
  }

  /** Worth retrying (for an idempotent request): no answer, throttling, server errors. */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

function describeStatus(status: number, reason: string): string {
  return status ? `HTTP ${status}${reason ? ` ${reason}` : ''}` : reason || 'no answer';
}

export function isStatus(e: unknown, status: number): boolean {
  return e instanceof KubeApiError && e.status === status;
}

export function isTransient(e: unknown): boolean {
  return e instanceof KubeApiError && e.transient;
}

/** Short description for messages, without the request: "HTTP 403 Forbidden: …" or "ETIMEDOUT: …". */
export function describeError(e: unknown): string {
  if (e instanceof KubeApiError) return `${describeStatus(e.status, e.reason)}: ${e.detail}`;
  return e instanceof Error ? e.message : String(e);
}

const STATUS_REASONS: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** The error of a non-2xx answer: reason and message from its meta/v1 Status body when it has one. */
export function statusError(request: { method: string; path: string }, status: number, body: unknown): KubeApiError {
  const s = (typeof body === 'object' && body !== null ? body : {}) as { reason?: unknown; message?: unknown };
  const reason = typeof s.reason === 'string' && s.reason ? s.reason : (STATUS_REASONS[status] ?? 'Error');
  const text = typeof s.message === 'string' ? s.message : typeof body === 'string' ? body : JSON.stringify(body ?? '');
  return new KubeApiError(status, reason, text.slice(0, 2000), request);
}
