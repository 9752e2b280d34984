// Kinds → REST resources, and the paths built from them: the one table for the CLI and the
// runtime (every kind either touches is namespaced, except the access reviews, which are posted
// to their own fixed paths). The runtime Role's rules (lib/plan/steps/rbac.ts) name the same
// resources; runtime/test/unit/rbac.test.ts checks the runtime's calls against them.

export interface Resource {
  /** API group ('' for the core group). */
  readonly group: string;
  /** Plural resource name. */
  readonly resource: string;
}

export const RESOURCES: Readonly<Record<string, Resource>> = {
  Job: { group: 'batch', resource: 'jobs' },
  StatefulSet: { group: 'apps', resource: 'statefulsets' },
  Pod: { group: '', resource: 'pods' },
  Service: { group: '', resource: 'services' },
  ConfigMap: { group: '', resource: 'configmaps' },
  Secret: { group: '', resource: 'secrets' },
  PodTemplate: { group: '', resource: 'podtemplates' },
  ServiceAccount: { group: '', resource: 'serviceaccounts' },
  PersistentVolumeClaim: { group: '', resource: 'persistentvolumeclaims' },
  ResourceQuota: { group: '', resource: 'resourcequotas' },
  LimitRange: { group: '', resource: 'limitranges' },
  Event: { group: '', resource: 'events' },
  Role: { group: 'rbac.authorization.k8s.io', resource: 'roles' },
  RoleBinding: { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
  NetworkPolicy: { group: 'networking.k8s.io', resource: 'networkpolicies' },
  // The Prometheus operator's CRD: served only where it is installed (lib/submit/admit/served-apis.ts).
  PodMonitor: { group: 'monitoring.coreos.com', resource: 'podmonitors' },
};

export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** The REST resource of a kind; throws for a kind outside the table (or an apiVersion of another group). */
export function resourceOf(kind: string, apiVersion?: string): string {
  const r = RESOURCES[kind];
  if (!r) throw new Error(`no resource name known for kind ${kind}`);
  if (apiVersion !== undefined && groupOf(apiVersion) !== r.group)
    throw new Error(`kind ${kind} is not in the API group of ${apiVersion}`);
  return r.resource;
}

/** API group of an apiVersion ('' for the core group). */
export function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

/** kubectl's way of naming a resource: "networkpolicies.networking.k8s.io", "pods". */
export function qualifiedResource(apiVersion: string, kind: string): string {
  const g = groupOf(apiVersion);
  return g ? `${resourceOf(kind, apiVersion)}.${g}` : resourceOf(kind, apiVersion);
}

export function collectionPath(apiVersion: string, kind: string, namespace: string): string {
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return `${base}/namespaces/${encodeURIComponent(namespace)}/${resourceOf(kind, apiVersion)}`;
}

export function objectPath(ref: ObjectRef): string {
  return `${collectionPath(ref.apiVersion, ref.kind, ref.namespace)}/${encodeURIComponent(ref.name)}`;
}

/** A query string ("" when every value is undefined). */
export function query(params: Readonly<Record<string, string | number | boolean | undefined>>): string {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return q ? `?${q}` : '';
}

export function refOf(obj: {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
}): ObjectRef {
  return { apiVersion: obj.apiVersion, kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name };
}

export function describeRef(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}
