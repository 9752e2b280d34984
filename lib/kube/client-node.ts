// The one place that loads @kubernetes/client-node. Version 1.x is ESM-only and this package is
// CommonJS, so it must be loaded with a real dynamic import() (tsconfig "module": "node16" keeps
// `import()` as is instead of turning it into require()). Types come from the re-export below (a
// type import of an ES module from CommonJS needs the resolution-mode attribute, kept here once):
//
//   import { loadClientNode, type k8s } from '../kube/client-node';
//   const { KubeConfig, CoreV1Api } = await loadClientNode();
//   const kc: k8s.KubeConfig = new KubeConfig();
//
// Under Jest this needs NODE_OPTIONS=--experimental-vm-modules (tools/test.sh sets it).
import type * as k8s from '@kubernetes/client-node' with { 'resolution-mode': 'import' };

export type { k8s };
export type ClientNode = typeof k8s;

let loading: Promise<ClientNode> | undefined;

/**
 * Where the CLI runs from a V8 code cache (bin/code-cache.js, Node 20), an import() inside the
 * bundle cannot load a module: the cached script comes back without Node's dynamic-import hook.
 * That loader then lends its own import() under this symbol (both resolve from the package's
 * node_modules).
 */
export const HOST_IMPORT = Symbol.for('seatunnel-app.import');

function hostImport(): ((specifier: string) => Promise<unknown>) | undefined {
  const f = (globalThis as Record<symbol, unknown>)[HOST_IMPORT];
  return typeof f === 'function' ? (f as (specifier: string) => Promise<unknown>) : undefined;
}

/** Loads @kubernetes/client-node once per module registry and returns its namespace object. */
export function loadClientNode(): Promise<ClientNode> {
  const lent = hostImport();
  loading ??= (
    lent ? (lent('@kubernetes/client-node') as Promise<ClientNode>) : import('@kubernetes/client-node')
  ).catch((e: unknown) => {
    loading = undefined;
    const err = e as Error;
    if (
      /experimental-vm-modules|ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING/.test(
        `${err.message} ${(err as { code?: string }).code ?? ''}`,
      )
    ) {
      err.message = `${err.message}\n(loading the ESM-only @kubernetes/client-node under Jest needs NODE_OPTIONS=--experimental-vm-modules)`;
    }
    throw err;
  });
  return loading;
}
