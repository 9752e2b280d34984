// What the runtime bundle takes from @kubernetes/client-node (see runtime/build.mjs): KubeConfig
// loads the kubeconfig or the in-cluster ServiceAccount and supplies credentials and TLS material.
export { KubeConfig } from '@kubernetes/client-node';
