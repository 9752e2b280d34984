// Server-side dry run with strict field validation: what the API server would say to an object,
// persisting nothing.
import type { KubeHttp } from '../kube-http';
import { adminHttp, tokenHttp } from './access';

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; generateName?: string; namespace?: string; [k: string]: unknown };
  [k: string]: unknown;
}

export interface DryRunResult {
  object: ObjectRef;
  ok: boolean;
  status: number;
  /** The server's answer: the object as it would be stored, or a Status. */
  response: unknown;
  /** Warning headers are not collected; field errors are in `message`. */
  message?: string;
}

interface ApiResource {
  name: string;
  namespaced: boolean;
  kind: string;
}

const discoveryCache = new Map<string, ApiResource[]>();

async function resourceFor(http: KubeHttp, apiVersion: string, kind: string): Promise<ApiResource & { base: string }> {
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  let resources = discoveryCache.get(base);
  if (!resources) {
    const list = await http.call<{ resources: ApiResource[] }>('GET', base);
    resources = list.resources.filter((r) => !r.name.includes('/'));
    discoveryCache.set(base, resources);
  }
  const r = resources.find((x) => x.kind === kind);
  if (!r) throw new Error(`the API server has no kind ${kind} in ${apiVersion}`);
  return { ...r, base };
}

/**
 * Server-side dry run (dryRun=All, fieldValidation=Strict) of each object, as create requests by
 * default or as server-side apply (`mode: 'apply'`, which also accepts objects that exist).
 * Namespaced objects without a namespace get `namespace`. Nothing is persisted. Unknown or
 * duplicate fields, schema and admission errors come back as failures; with `throwOnError`
 * (default) one error lists every failing object. Note: create reports an unknown field as
 * HTTP 400 `unknown field "x"`; server-side apply reports it as HTTP 500 `.x: field not declared
 * in schema` (API server behaviour).
 */
export async function dryRunStrict(
  objects: ReadonlyArray<ObjectRef>,
  opts: {
    namespace?: string;
    mode?: 'create' | 'apply';
    fieldManager?: string;
    token?: string;
    throwOnError?: boolean;
  } = {},
): Promise<DryRunResult[]> {
  const http = opts.token ? tokenHttp(opts.token) : adminHttp();
  const mode = opts.mode ?? 'create';
  const fieldManager = opts.fieldManager ?? 'seatunnel-app-dry-run';
  const results: DryRunResult[] = [];
  for (const obj of objects) {
    const res = await resourceFor(http, obj.apiVersion, obj.kind);
    const ns = obj.metadata.namespace ?? opts.namespace;
    if (res.namespaced && !ns)
      throw new Error(
        `dryRunStrict: ${obj.kind} ${obj.metadata.name} is namespaced but has no namespace and none was given`,
      );
    const body = res.namespaced ? { ...obj, metadata: { ...obj.metadata, namespace: ns } } : obj;
    const collection = `${res.base}${res.namespaced ? `/namespaces/${encodeURIComponent(ns!)}` : ''}/${res.name}`;
    const q = `dryRun=All&fieldValidation=Strict&fieldManager=${encodeURIComponent(fieldManager)}`;
    const r =
      mode === 'apply'
        ? await http.request(
            'PATCH',
            `${collection}/${encodeURIComponent(obj.metadata.name ?? '')}?${q}&force=true`,
            body,
            {
              contentType: 'application/apply-patch+yaml',
            },
          )
        : await http.request('POST', `${collection}?${q}`, body);
    const ok = r.status >= 200 && r.status < 300;
    results.push({
      object: obj,
      ok,
      status: r.status,
      response: r.body,
      message: ok ? undefined : ((r.body as { message?: string })?.message ?? r.text),
    });
  }
  if (opts.throwOnError !== false) {
    const bad = results.filter((r) => !r.ok);
    if (bad.length > 0) {
      throw new Error(
        `server-side dry run rejected ${bad.length} of ${results.length} objects:\n` +
          bad
            .map(
              (b) =>
                `  ${b.object.kind}/${b.object.metadata.name ?? b.object.metadata.generateName}: HTTP ${b.status}: ${b.message}`,
            )
            .join('\n'),
      );
    }
  }
  return results;
}
