// Test PKI made with the openssl CLI (node:crypto can make keys but not X.509 certificates):
// one CA, a serving certificate for 127.0.0.1 shared by the API server, controller manager and
// scheduler, client certificates for the admin and the two control-plane components, the local
// kubelet's serving certificate (its container-log endpoint) with the API server's client
// certificate for it, the ServiceAccount token signing key pair — and etcd's own CA, which signs
// etcd's serving (and peer) certificate and the API server's client certificate for etcd: etcd
// accepts no other client, so no local user reads the cluster's Secrets through it.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Pki {
  dir: string;
  caCert: string;
  caKey: string;
  /** A separate CA for the request-header (front proxy) authenticator; nothing is signed with it. */
  frontProxyCaCert: string;
  servingCert: string;
  servingKey: string;
  /** The local kubelet's log endpoint on 127.0.0.1 (kubelet-log-server.ts). */
  kubeletServingCert: string;
  kubeletServingKey: string;
  /** client certificates by name: admin (system:masters), kube-controller-manager, kube-scheduler */
  clients: Record<ClientName, { cert: string; key: string }>;
  saKey: string;
  saPub: string;
  /** etcd: its CA (trusted by etcd alone), its serving and peer certificate, the API server's client certificate. */
  etcd: { caCert: string; serverCert: string; serverKey: string; clientCert: string; clientKey: string };
}

export type ClientName = 'admin' | 'kube-controller-manager' | 'kube-scheduler' | 'kube-apiserver-kubelet-client';

const CLIENT_SUBJECTS: Record<ClientName, string> = {
  admin: '/O=system:masters/CN=seatunnel-app-test-admin',
  'kube-controller-manager': '/CN=system:kube-controller-manager',
  'kube-scheduler': '/CN=system:kube-scheduler',
  // What the API server presents to kubelets (--kubelet-client-certificate), as kubeadm makes it.
  'kube-apiserver-kubelet-client': '/O=system:masters/CN=kube-apiserver-kubelet-client',
};

const SERVING_SANS = [
  'IP:127.0.0.1',
  'DNS:localhost',
  // The in-cluster names and the first service IP of --service-cluster-ip-range, so the
  // certificate also matches what a Pod's kubeconfig would use (data only; nobody dials them).
  'IP:10.96.0.1',
  'DNS:kubernetes',
  'DNS:kubernetes.default',
  'DNS:kubernetes.default.svc',
  'DNS:kubernetes.default.svc.cluster.local',
];

async function openssl(step: string, args: string[]): Promise<void> {
  try {
    await run('openssl', args, { maxBuffer: 1024 * 1024 });
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(`PKI step "${step}" failed: openssl ${args.join(' ')}\n${err.stderr ?? err.message}`, { cause: e });
  }
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function signed(
  dir: string,
  name: string,
  subject: string,
  ext: string,
  ca: { cert: string; key: string },
): Promise<{ cert: string; key: string }> {
  const key = path.join(dir, `${name}.key`);
  const csr = path.join(dir, `${name}.csr`);
  const cert = path.join(dir, `${name}.crt`);
  const extFile = path.join(dir, `${name}.ext`);
  fs.writeFileSync(extFile, ext);
  await openssl(`${name} key and CSR`, ['req', '-new', ...EC, '-keyout', key, '-out', csr, '-subj', subject]);
  await openssl(`${name} certificate`, [
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca.cert,
    '-CAkey',
    ca.key,
    '-set_serial',
    `0x${randomBytes(12).toString('hex')}`,
    '-days',
    '30',
    '-sha256',
    '-out',
    cert,
    '-extfile',
    extFile,
  ]);
  return { cert, key };
}

/** `extraServingSans`: more subjectAltName entries of the API server's certificate, e.g. `IP:10.248.0.254`. */
export async function createPki(dir: string, extraServingSans: string[] = []): Promise<Pki> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const caCert = path.join(dir, 'ca.crt');
  const caKey = path.join(dir, 'ca.key');
  const saKey = path.join(dir, 'sa.key');
  const saPub = path.join(dir, 'sa.pub');
  const frontProxyCaCert = path.join(dir, 'front-proxy-ca.crt');
  await Promise.all([
    openssl('front-proxy CA', [
      'req',
      '-x509',
      ...EC,
      '-keyout',
      path.join(dir, 'front-proxy-ca.key'),
      '-out',
      frontProxyCaCert,
      '-days',
      '30',
      '-sha256',
      '-subj',
      '/CN=seatunnel-app-test-front-proxy-ca',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]),
    openssl('CA', [
      'req',
      '-x509',
      ...EC,
      '-keyout',
      caKey,
      '-out',
      caCert,
      '-days',
      '30',
      '-sha256',
      '-subj',
      '/CN=seatunnel-app-test-ca',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]),
    // RSA for the ServiceAccount issuer: RS256 is what every token consumer understands.
    openssl('ServiceAccount signing key', [
      'genpkey',
      '-algorithm',
      'RSA',
      '-pkeyopt',
      'rsa_keygen_bits:2048',
      '-out',
      saKey,
    ]).then(() => openssl('ServiceAccount public key', ['pkey', '-in', saKey, '-pubout', '-out', saPub])),
  ]);
  const ca = { cert: caCert, key: caKey };
  const etcdCa = { cert: path.join(dir, 'etcd-ca.crt'), key: path.join(dir, 'etcd-ca.key') };
  await openssl('etcd CA', [
    'req',
    '-x509',
    ...EC,
    '-keyout',
    etcdCa.key,
    '-out',
    etcdCa.cert,
    '-days',
    '30',
    '-sha256',
    '-subj',
    '/CN=seatunnel-app-test-etcd-ca',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const clientExt =
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n';
  const names = Object.keys(CLIENT_SUBJECTS) as ClientName[];
  const [serving, kubelet, ...clientPairs] = await Promise.all([
    signed(
      dir,
      'serving',
      '/CN=127.0.0.1',
      `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=${[...SERVING_SANS, ...extraServingSans].join(',')}\n`,
      ca,
    ),
    signed(
      dir,
      'kubelet-serving',
      '/O=system:nodes/CN=system:node:local-kubelet',
      'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1\n',
      ca,
    ),
    ...names.map((name) => signed(dir, name, CLIENT_SUBJECTS[name], clientExt, ca)),
  ]);
  const [etcdServer, etcdClient] = await Promise.all([
    // Serving and peer certificate (a peer presents it as a client too).
    signed(
      dir,
      'etcd-server',
      '/CN=seatunnel-app-test-etcd',
      'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n',
      etcdCa,
    ),
    signed(dir, 'apiserver-etcd-client', '/CN=kube-apiserver-etcd-client', clientExt, etcdCa),
  ]);
  const clients = {} as Pki['clients'];
  names.forEach((name, i) => (clients[name] = clientPairs[i]!));
  return {
    dir,
    caCert,
    caKey,
    frontProxyCaCert,
    servingCert: serving.cert,
    servingKey: serving.key,
    kubeletServingCert: kubelet.cert,
    kubeletServingKey: kubelet.key,
    clients,
    saKey,
    saPub,
    etcd: {
      caCert: etcdCa.cert,
      serverCert: etcdServer.cert,
      serverKey: etcdServer.key,
      clientCert: etcdClient.cert,
      clientKey: etcdClient.key,
    },
  };
}

/**
 * A further certificate signed by the CA of `pki`: a client certificate (`sans` empty) or a serving
 * one for the given subjectAltName entries (e.g. `IP:10.247.3.2`, `DNS:node-3`). For a real node's kubelet.
 */
export function issueCertificate(
  pki: Pick<Pki, 'dir' | 'caCert' | 'caKey'>,
  name: string,
  subject: string,
  sans: string[] = [],
): Promise<{ cert: string; key: string }> {
  const usage = sans.length > 0 ? `serverAuth\nsubjectAltName=${sans.join(',')}` : 'clientAuth';
  return signed(
    pki.dir,
    name,
    subject,
    `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=${usage}\n`,
    {
      cert: pki.caCert,
      key: pki.caKey,
    },
  );
}
