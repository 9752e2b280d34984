// A throwaway TLS key and certificate for a server on 127.0.0.1 (openssl, P-256, one day): what a
// test needs to speak HTTP/2 over TLS as the kube-apiserver does.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface SelfSigned {
  readonly key: Buffer;
  readonly cert: Buffer;
}

/** Writes server.key and server.crt into `dir` and returns them. */
export function selfSignedFor127(dir: string): SelfSigned {
  const key = path.join(dir, 'server.key');
  const cert = path.join(dir, 'server.crt');
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  return { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
}
