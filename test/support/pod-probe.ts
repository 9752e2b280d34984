// Network checks made from inside a running Pod of the toolbox image (Node.js with libc): HTTP GETs (a
// new connection each), a DNS lookup through the Pod's resolver, and a call to the API server
// through the kubernetes Service with the Pod's ServiceAccount token — run with `kubectl exec`, so
// what is measured is the Pod's own view of the network. Nothing answers "NO ANSWER <reason>".
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { clusterInfo } from './cluster';
import { nodeInfo } from './node-pods';

const run = promisify(execFile);

export const NODE_BIN = '/seatunnel-app/bin/node';

export interface ProbeRequest {
  /** URL to GET `times` times. */
  get?: string;
  times?: number;
  timeoutMs?: number;
  /** A name to resolve. */
  lookup?: string;
  /** GET /version from the API server through https://kubernetes.default.svc. */
  api?: boolean;
}

export interface ProbeResult {
  get?: string[];
  lookup?: string;
  api?: string;
}

const PROBE = String.raw`
const { get, times = 1, timeoutMs = 3000, lookup, api } = JSON.parse(process.argv[1]);
const http = require('http'), https = require('https'), dns = require('dns'), fs = require('fs');
const once = (mod, url, opts) => new Promise((resolve) => {
  const r = mod.get(url, { ...opts, agent: false, timeout: timeoutMs }, (s) => {
    let b = '';
    s.setEncoding('utf8');
    s.on('data', (c) => (b += c));
    s.on('end', () => resolve(b.trim()));
  });
  r.on('timeout', () => r.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
  r.on('error', (e) => resolve('NO ANSWER ' + (e.code || e.message)));
});
(async () => {
  const out = {};
  if (get) {
    out.get = [];
    for (let i = 0; i < times; i++) out.get.push(await once(http, get, {}));
  }
  if (lookup) out.lookup = await new Promise((r) => dns.lookup(lookup, (e, a) => r(e ? 'NO ANSWER ' + e.code : a)));
  if (api) {
    const d = '/var/run/secrets/kubernetes.io/serviceaccount/';
    out.api = await once(https, 'https://kubernetes.default.svc/version', {
      ca: fs.readFileSync(d + 'ca.crt'),
      headers: { authorization: 'Bearer ' + fs.readFileSync(d + 'token', 'utf8') },
    });
  }
  console.log(JSON.stringify(out));
})();
`;

/** Runs the checks in `namespace/pod` (a Pod of the toolbox image) and returns what it saw. */
export async function probeFromPod(namespace: string, pod: string, req: ProbeRequest): Promise<ProbeResult> {
  const budgetMs = ((req.times ?? 1) + 2) * (req.timeoutMs ?? 3000) + 30_000;
  const { stdout } = await run(
    nodeInfo().kubectl,
    [
      '--kubeconfig',
      clusterInfo().kubeconfig,
      '-n',
      namespace,
      'exec',
      pod,
      '--',
      NODE_BIN,
      '-e',
      PROBE,
      JSON.stringify(req),
    ],
    { timeout: budgetMs },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as ProbeResult;
}

/** A Node.js HTTP server on `port` answering every GET with the name of the node it runs on. */
export function echoServerCommand(port: number): string[] {
  return [NODE_BIN, '-e', `require('http').createServer((q, s) => s.end(process.env.NODE_NAME)).listen(${port})`];
}
