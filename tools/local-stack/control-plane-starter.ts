// One start of the control plane (control-plane.ts): PKI, etcd, kube-apiserver, the controller
// manager, the scheduler and kwok, each awaited; kept apart from ControlPlane so that the failure
// path can see (and stop) what was started.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import type { TestBinaries } from './binaries';
import { KubeHttp, KubeHttpError } from '../../test/support/kube-http';
import type { ClusterInfo, ControlPlaneOptions } from './control-plane';
import {
  apiServerReady,
  createFakeNode,
  type FakeNodeOptions,
  kubeconfigYaml,
  POD_CIDR,
  schedulerConfigApiVersion,
  SERVICE_CIDR,
  waitForNodesReady,
} from './control-plane-objects';
import { KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE, writeKwokStages } from './kwok-stages';
import { createPki, type Pki } from './pki';
import { freePorts } from './ports';
import { ManagedProcess } from './process';
import { waitFor } from './wait';

function httpGet(
  url: string,
  tls?: { ca: string; cert: string; key: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith('https:') ? https.get : http.get;
    const req = get(url, { ...(tls ?? {}) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.setTimeout(5000, () => req.destroy(new Error(`GET ${url}: no response within 5 s`)));
    req.on('error', reject);
  });
}

/** One startup; split out of ControlPlane so the failure path can see what was started. */
export class Starter {
  private readonly deadline: number;

  constructor(
    private readonly bins: TestBinaries,
    private readonly dir: string,
    private readonly logDir: string,
    private readonly pidFile: string,
    private readonly processes: ManagedProcess[],
    private readonly log: (line: string) => void,
    timeoutMs: number,
  ) {
    this.deadline = Date.now() + timeoutMs;
  }

  private remaining(): number {
    return Math.max(1000, this.deadline - Date.now());
  }

  private guard = () => {
    for (const p of this.processes) p.assertRunning();
  };

  private async spawn(name: string, command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<ManagedProcess> {
    const p = await ManagedProcess.start({
      name,
      command,
      args,
      env: env ?? process.env,
      cwd: this.dir,
      logFile: path.join(this.logDir, `${name}.log`),
      pidFile: this.pidFile,
    });
    this.processes.push(p);
    return p;
  }

  private file(name: string, content: string, mode = 0o600): string {
    const f = path.join(this.dir, name);
    fs.writeFileSync(f, content, { mode });
    return f;
  }

  async run<T extends { writeInfo(): string }>(
    opts: ControlPlaneOptions,
    make: (info: ClusterInfo, admin: KubeHttp) => T,
  ): Promise<T> {
    const { bins, dir } = this;
    const [etcdPort, etcdPeerPort, apiPort, kcmPort, schedPort] = await freePorts(5);
    this.log('creating PKI');
    // Clients dial the advertised address too (a real node's kubelets, through its relay).
    const advertised = opts.apiServerAdvertiseAddress ? [`IP:${opts.apiServerAdvertiseAddress}`] : [];
    const pki: Pki = await createPki(path.join(dir, 'pki'), advertised);
    const read = (f: string) => fs.readFileSync(f, 'utf8');
    const caData = read(pki.caCert);
    const server = `https://127.0.0.1:${apiPort}`;
    const adminToken = randomBytes(24).toString('hex');
    const tokenFile = this.file(
      'tokens.csv',
      `${adminToken},seatunnel-app-test-admin-token,admin-token,"system:masters"\n`,
    );
    const kubeconfigFor = (name: 'admin' | 'kube-controller-manager' | 'kube-scheduler') =>
      this.file(
        `${name}.kubeconfig`,
        kubeconfigYaml({
          server,
          caData,
          user: name,
          certData: read(pki.clients[name].cert),
          keyData: read(pki.clients[name].key),
        }),
      );
    const adminKubeconfig = kubeconfigFor('admin');
    const kcmKubeconfig = kubeconfigFor('kube-controller-manager');
    const schedKubeconfig = kubeconfigFor('kube-scheduler');

    // etcd: TLS with client certificates of its own CA, which only the API server holds; plain
    // HTTP on 127.0.0.1 would let any local user read every Secret (and, with the local kubelet,
    // run code as this stack's user).
    const etcdUrl = `https://127.0.0.1:${etcdPort}`;
    const peerUrl = `https://127.0.0.1:${etcdPeerPort}`;
    const etcdTls = pki.etcd;
    this.log(`starting etcd on ${etcdUrl}`);
    await this.spawn('etcd', bins.etcd, [
      '--name=seatunnel-app-test',
      `--data-dir=${path.join(dir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=seatunnel-app-test=${peerUrl}`,
      '--initial-cluster-state=new',
      `--cert-file=${etcdTls.serverCert}`,
      `--key-file=${etcdTls.serverKey}`,
      `--trusted-ca-file=${etcdTls.caCert}`,
      '--client-cert-auth=true',
      `--peer-cert-file=${etcdTls.serverCert}`,
      `--peer-key-file=${etcdTls.serverKey}`,
      `--peer-trusted-ca-file=${etcdTls.caCert}`,
      '--peer-client-cert-auth=true',
      '--unsafe-no-fsync=true',
      '--log-level=warn',
    ]);
    const etcdClientTls = {
      ca: read(etcdTls.caCert),
      cert: read(etcdTls.clientCert),
      key: read(etcdTls.clientKey),
    };
    await waitFor(
      async () => {
        const r = await httpGet(`${etcdUrl}/health`, etcdClientTls);
        if (r.status !== 200 || !r.text.includes('"true"')) throw new Error(`HTTP ${r.status} ${r.text}`);
        return true;
      },
      {
        description: `etcd ${etcdUrl}/health`,
        timeoutMs: Math.min(60_000, this.remaining()),
        guard: this.guard,
        intervalMs: 100,
      },
    );

    // kube-apiserver
    this.log(`starting kube-apiserver on ${server}`);
    await this.spawn('kube-apiserver', bins.kubeApiserver, [
      `--etcd-servers=${etcdUrl}`,
      `--etcd-cafile=${etcdTls.caCert}`,
      `--etcd-certfile=${etcdTls.clientCert}`,
      `--etcd-keyfile=${etcdTls.clientKey}`,
      '--bind-address=127.0.0.1',
      `--advertise-address=${opts.apiServerAdvertiseAddress ?? '127.0.0.1'}`,
      `--secure-port=${apiPort}`,
      `--cert-dir=${path.join(dir, 'apiserver-certs')}`,
      `--tls-cert-file=${pki.servingCert}`,
      `--tls-private-key-file=${pki.servingKey}`,
      `--client-ca-file=${pki.caCert}`,
      // Published in kube-system/extension-apiserver-authentication; without it the controller
      // manager and scheduler log "missing content for CA bundle" errors forever.
      `--requestheader-client-ca-file=${pki.frontProxyCaCert}`,
      '--requestheader-allowed-names=front-proxy-client',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      `--token-auth-file=${tokenFile}`,
      '--authorization-mode=Node,RBAC',
      `--service-account-issuer=${server}`,
      `--service-account-key-file=${pki.saPub}`,
      `--service-account-signing-key-file=${pki.saKey}`,
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      '--allow-privileged=true',
      '--profiling=false',
      // Pod logs, exec and port-forward go to the node's kubelet: the local kubelet serves logs
      // (kubelet-log-server.ts) on 127.0.0.1 with a certificate of our CA, and its nodes advertise
      // InternalIP 127.0.0.1 (the default order tries Hostname first, which nothing resolves).
      `--kubelet-certificate-authority=${pki.caCert}`,
      `--kubelet-client-certificate=${pki.clients['kube-apiserver-kubelet-client'].cert}`,
      `--kubelet-client-key=${pki.clients['kube-apiserver-kubelet-client'].key}`,
      '--kubelet-preferred-address-types=InternalIP,Hostname',
      // The default/kubernetes Service must not advertise 127.0.0.1 (Endpoints reject loopback
      // addresses) and nothing in the fake cluster dials it; a real node's Pods do.
      `--endpoint-reconciler-type=${opts.apiServerAdvertiseAddress ? 'lease' : 'none'}`,
    ]);
    const admin = new KubeHttp({
      server,
      ca: caData,
      cert: read(pki.clients.admin.cert),
      key: read(pki.clients.admin.key),
    });
    await waitFor(() => apiServerReady(admin), {
      description: `kube-apiserver ${server}/readyz`,
      timeoutMs: Math.min(120_000, this.remaining()),
      guard: this.guard,
      intervalMs: 250,
    });
    const version = await admin.call<{ gitVersion: string; minor: string }>('GET', '/version');
    this.log(`kube-apiserver ${version.gitVersion} is ready`);

    // controller manager, scheduler and kwok, in parallel
    this.log('starting kube-controller-manager, kube-scheduler and kwok');
    const serving = [
      `--tls-cert-file=${pki.servingCert}`,
      `--tls-private-key-file=${pki.servingKey}`,
      '--bind-address=127.0.0.1',
    ];
    await this.spawn('kube-controller-manager', bins.kubeControllerManager, [
      `--kubeconfig=${kcmKubeconfig}`,
      `--authentication-kubeconfig=${kcmKubeconfig}`,
      `--authorization-kubeconfig=${kcmKubeconfig}`,
      `--secure-port=${kcmPort}`,
      ...serving,
      '--leader-elect=false',
      '--controllers=*',
      // Each controller runs as its own kube-system ServiceAccount with the bootstrap RBAC roles,
      // as in a kubeadm cluster (tokens via TokenRequest; no legacy token secrets).
      '--use-service-account-credentials=true',
      `--root-ca-file=${pki.caCert}`,
      `--cluster-signing-cert-file=${pki.caCert}`,
      `--cluster-signing-key-file=${pki.caKey}`,
      '--kube-api-qps=100',
      '--kube-api-burst=200',
      '--profiling=false',
      ...(opts.allocateNodeCidrs
        ? ['--allocate-node-cidrs=true', `--cluster-cidr=${POD_CIDR}`, '--node-cidr-mask-size=24']
        : []),
      ...(opts.controllerManagerFlags ?? []),
    ]);
    const schedConfig = this.file(
      'kube-scheduler.yaml',
      JSON.stringify({
        apiVersion: schedulerConfigApiVersion(Number.parseInt(version.minor, 10)),
        kind: 'KubeSchedulerConfiguration',
        clientConnection: { kubeconfig: schedKubeconfig, qps: 100, burst: 200 },
        leaderElection: { leaderElect: false },
      }),
    );
    await this.spawn('kube-scheduler', bins.kubeScheduler, [
      `--config=${schedConfig}`,
      `--authentication-kubeconfig=${schedKubeconfig}`,
      `--authorization-kubeconfig=${schedKubeconfig}`,
      `--secure-port=${schedPort}`,
      ...serving,
    ]);
    const kwokHome = path.join(dir, 'kwok-home');
    fs.mkdirSync(kwokHome);
    const stages = writeKwokStages(bins.kwokStages, path.join(dir, 'kwok-stages.yaml'));
    await this.spawn(
      'kwok',
      bins.kwok,
      [
        `--kubeconfig=${adminKubeconfig}`,
        `--config=${stages}`,
        '--manage-all-nodes=false',
        `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=${KWOK_NODE_ANNOTATION_VALUE}`,
        `--cidr=${POD_CIDR}`,
        '--node-ip=10.255.0.1',
        '--node-lease-duration-seconds=40',
      ],
      // kwok reads ~/.kwok/kwok.yaml first; a private HOME keeps a user's file out of the tests.
      { ...process.env, HOME: kwokHome },
    );

    // fake nodes
    const nodeSpecs =
      typeof opts.nodes === 'object'
        ? opts.nodes
        : Array.from({ length: opts.nodes ?? 3 }, (_, i): FakeNodeOptions & { name: string } => ({
            name: `kwok-node-${i}`,
          }));
    await Promise.all(nodeSpecs.map((n, i) => createFakeNode(admin, n.name, n, `10.255.0.${i + 2}`)));

    const healthz = async (port: number, name: string) => {
      const client = new KubeHttp({ server: `https://127.0.0.1:${port}`, ca: caData });
      try {
        await waitFor(
          async () => {
            const r = await client.request('GET', '/healthz', undefined, { timeoutMs: 5000 });
            if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text}`);
            return true;
          },
          {
            description: `${name} https://127.0.0.1:${port}/healthz`,
            timeoutMs: Math.min(90_000, this.remaining()),
            guard: this.guard,
          },
        );
      } finally {
        client.close();
      }
    };
    await Promise.all([
      healthz(kcmPort, 'kube-controller-manager'),
      healthz(schedPort, 'kube-scheduler'),
      waitForNodesReady(
        admin,
        nodeSpecs.map((n) => n.name),
        Math.min(90_000, this.remaining()),
        this.guard,
      ),
      // The ServiceAccount controller is running (Pods are rejected until their SA exists).
      waitFor(
        async () => {
          await admin.call('GET', '/api/v1/namespaces/default/serviceaccounts/default');
          return true;
        },
        {
          description: 'the default ServiceAccount in namespace default (serviceaccount-controller)',
          timeoutMs: Math.min(90_000, this.remaining()),
          guard: this.guard,
        },
      ).catch((e: unknown) => {
        throw e instanceof KubeHttpError ? new Error(e.message) : e;
      }),
    ]);

    const info: ClusterInfo = {
      version: 1,
      dir,
      kubeconfig: adminKubeconfig,
      server,
      caFile: pki.caCert,
      caData,
      adminToken,
      adminCertFile: pki.clients.admin.cert,
      adminKeyFile: pki.clients.admin.key,
      kubeletCertFile: pki.kubeletServingCert,
      kubeletKeyFile: pki.kubeletServingKey,
      etcdUrl,
      serviceAccountIssuer: server,
      logDir: this.logDir,
      pidFile: this.pidFile,
      nodes: nodeSpecs.map((n) => n.name),
      kubernetesVersion: version.gitVersion,
      components: this.processes.map((p) => ({ name: p.name, pid: p.pid, logFile: p.logFile })),
      ownerPid: process.pid,
    };
    const cp = make(info, admin);
    cp.writeInfo();
    return cp;
  }
}
