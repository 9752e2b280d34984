// The CLI's Kubernetes side: the port and its client-node adapter, submit with compensation,
// status, cancel and preflight. Nothing here is loaded by synth or docs.
export * from '../kube';
export * from './kubeconfig';
export * from './client-node-api';
export * from './references';
export * from './submit';
export * from './footprint';
export * from './permissions';
export * from './preflight';
export * from './status';
export * from './cancel';
export * from './timeline';
