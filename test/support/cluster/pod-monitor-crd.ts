// A stand-in for the Prometheus operator's PodMonitor CRD, written for the tests: the group,
// version, kind and names the operator uses (monitoring.coreos.com/v1, podmonitors, namespaced),
// and a schema that keeps whatever it is given — enough for the API server to serve the kind, for
// discovery to list it and for the garbage collector to collect it; what the operator makes of a
// PodMonitor is not the cluster tier's to prove (the plan's unit tests pin its shape).
import { adminHttp } from './access';
import { waitFor } from '../../../tools/local-stack/wait';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
export const POD_MONITOR_CRD = 'podmonitors.monitoring.coreos.com';
const DISCOVERY = '/apis/monitoring.coreos.com/v1';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: POD_MONITOR_CRD },
  spec: {
    group: 'monitoring.coreos.com',
    scope: 'Namespaced',
    names: { kind: 'PodMonitor', listKind: 'PodMonitorList', plural: 'podmonitors', singular: 'podmonitor' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

const served = async () =>
  (await adminHttp().request<{ resources?: Array<{ name: string }> }>('GET', DISCOVERY)).body?.resources?.some(
    (r) => r.name === 'podmonitors',
  ) ?? false;

const established = async () =>
  (
    await adminHttp().request<{ status?: { conditions?: Array<{ type: string; status: string }> } }>(
      'GET',
      `${CRDS}/${POD_MONITOR_CRD}`,
    )
  ).body?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;

/** Installs the CRD (or keeps the one there) and waits until it is established and discovery lists podmonitors. */
export async function installPodMonitorCrd(): Promise<void> {
  await adminHttp().call('POST', CRDS, crd, { accept: [409] });
  await waitFor(async () => ((await established()) && (await served()) ? true : undefined), {
    description: `${POD_MONITOR_CRD} to be served`,
    timeoutMs: 60_000,
  });
}

/** Deletes the CRD (and with it every PodMonitor) and waits until discovery no longer lists it. */
export async function removePodMonitorCrd(): Promise<void> {
  await adminHttp().call('DELETE', `${CRDS}/${POD_MONITOR_CRD}`, undefined, { accept: [404] });
  await waitFor(async () => ((await served()) ? undefined : true), {
    description: `${POD_MONITOR_CRD} to be gone from discovery`,
    timeoutMs: 60_000,
  });
}
