// The CLI's Kubernetes side, by role (as the Flink Kubernetes operator splits observer, validator
// and reconciler): connection/ reaches the API server, admit/ decides before anything is written
// (preflight, references, permissions, quota and limit ranges, Pod Security, the server's
// version), act/ writes (submit with compensation, cancel), observe/ reads what Kubernetes shows
// (status, list, the timeline, logs). Nothing here is loaded by synth or docs.
export * from '../kube';
export * from './connection/kubeconfig';
export * from './connection/client-node-api';
export * from './admit/references';
export * from './admit/footprint';
export * from './admit/quota';
export * from './admit/limit-range';
export * from './admit/permissions';
export * from './admit/preflight';
export * from './admit/preflight-judge';
export * from './act/submit';
export * from './act/cancel';
export * from './observe/status';
export { podProblem, STUCK, type MastersSummary, type WorkerSummary } from './observe/application-pods';
export { EXIT_CODE_MEANING } from './observe/failure';
export * from './observe/timeline';
