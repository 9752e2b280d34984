// Strict schema validation of Kubernetes objects against the OpenAPI v3 spec of the Kubernetes
// release our test control plane is built from (k8s.io/kubernetes/api/openapi-spec/v3, taken from
// the Go module cache; downloaded with `go mod download` when missing). Every object schema is
// closed (additionalProperties: false), so an unknown or misspelled field fails, not only a
// wrong type or a missing required field.

import Ajv, { type ValidateFunction } from 'ajv';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SPEC_FILES = [
  'api__v1_openapi.json',
  'apis__batch__v1_openapi.json',
  'apis__rbac.authorization.k8s.io__v1_openapi.json',
  'apis__networking.k8s.io__v1_openapi.json',
  'apis__apps__v1_openapi.json',
];

function kubernetesVersion(): string {
  const env = readFileSync(join(__dirname, '..', '..', 'tools', 'testbin', 'versions.env'), 'utf8');
  const m = /^K8S_VERSION=(\S+)/m.exec(env);
  if (!m) throw new Error('K8S_VERSION missing from tools/testbin/versions.env');
  return m[1];
}

/** The directory of the OpenAPI v3 spec files, fetching the module if needed. */
export function openApiSpecDir(): string {
  const version = kubernetesVersion();
  const modcache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  const dir = join(modcache, `k8s.io/kubernetes@${version}`, 'api', 'openapi-spec', 'v3');
  if (!existsSync(dir)) {
    process.stderr.write(`[k8s-schema] downloading k8s.io/kubernetes@${version} for its OpenAPI spec\n`);
    execFileSync('go', ['mod', 'download', `k8s.io/kubernetes@${version}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (!existsSync(dir)) throw new Error(`OpenAPI spec not found at ${dir}`);
  return dir;
}

type Schema = Record<string, unknown>;

function closeObjects(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(closeObjects);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const s = node as Schema;
  delete s.description;
  delete s.default;
  if (s.properties && s.additionalProperties === undefined) s.additionalProperties = false;
  for (const v of Object.values(s)) closeObjects(v);
}

export interface KubeSchemaValidator {
  /** Problems of one object ("Job fake/spec: must NOT have additional properties 'suspnd'"), or []. */
  validate(obj: { apiVersion?: string; kind?: string; metadata?: { name?: string } }): string[];
}

let cached: KubeSchemaValidator | undefined;

export function kubeSchemaValidator(): KubeSchemaValidator {
  if (cached) return cached;
  const dir = openApiSpecDir();
  const schemas: Record<string, Schema> = {};
  const byGvk = new Map<string, string>();
  for (const file of SPEC_FILES) {
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      components: { schemas: Record<string, Schema> };
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const gvks = schema['x-kubernetes-group-version-kind'] as
        Array<{ group: string; version: string; kind: string }> | undefined;
      for (const g of gvks ?? []) {
        const apiVersion = g.group ? `${g.group}/${g.version}` : g.version;
        if (!byGvk.has(`${apiVersion}/${g.kind}`) && !name.endsWith('List')) byGvk.set(`${apiVersion}/${g.kind}`, name);
      }
      schemas[name] = schema;
    }
  }
  closeObjects(schemas);
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'k8s', components: { schemas } });
  const compiled = new Map<string, ValidateFunction>();
  cached = {
    validate(obj) {
      const key = `${obj.apiVersion}/${obj.kind}`;
      const name = byGvk.get(key);
      if (!name) return [`unknown apiVersion/kind ${key}`];
      let fn = compiled.get(name);
      if (!fn) {
        fn = ajv.compile({ $ref: `k8s#/components/schemas/${name}` });
        compiled.set(name, fn);
      }
      const target: unknown = obj;
      if (fn(target)) return [];
      return (fn.errors ?? []).map((e) => {
        const extra =
          e.keyword === 'additionalProperties'
            ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'`
            : '';
        return `${obj.kind} ${obj.metadata?.name ?? '?'}${e.instancePath || '/'}: ${e.message}${extra}`;
      });
    },
  };
  return cached;
}
