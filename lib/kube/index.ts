// The Kubernetes client layer shared by the CLI, the runtime and the test harness. Start at
// README.md; the HTTP client itself is transport.ts.
export * from './errors';
export * from './resources';
export * from './api';
export type { Credentials, TlsMaterial } from './connection';
export * from './transport';
export * from './client';
export * from './retry';
export * from './server-version';
export { clientNodeCredentials, type ClientNodeCredentialOptions } from './credentials';
