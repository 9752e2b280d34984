// How the CLI reaches the API server: kubernetes.kubeconfig, then KUBECONFIG, then the in-cluster
// ServiceAccount; static credentials read directly (HTTP/2 over TLS), exec plugins and merged
// KUBECONFIG files through @kubernetes/client-node; and the kubeconfig never reaches the cluster.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../../lib/submit/connection/client-node-api';
import { Kube } from '../../lib/kube';
import { clusterInfo, serviceAccountIdentity, useTestNamespace, withComponentLogs } from '../support/cluster';
import { deploymentFiles, labelled, run, tmpDir, waitAllGone } from './cli-support';

const ns = useTestNamespace('cli-conn');

function kubeconfigWith(user: Record<string, unknown>, server = clusterInfo().server): string {
  const file = path.join(tmpDir('st-cli-kc-'), 'kubeconfig');
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'c',
      clusters: [
        {
          name: 'k',
          cluster: { server, 'certificate-authority-data': Buffer.from(clusterInfo().caData).toString('base64') },
        },
      ],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
    }),
  );
  return file;
}

test(
  'static credentials (client certificate; token) are read directly; an exec plugin goes through client-node',
  withComponentLogs(async () => {
    const cert = await connect({ kubeconfig: clusterInfo().kubeconfig });
    expect([cert.via, cert.source]).toEqual(['static', 'kubernetes.kubeconfig']);
    expect((await new Kube(cert).list('v1', 'Pod', ns.name)).items).toEqual([]);
    cert.close();

    const token = await connect({ kubeconfig: kubeconfigWith({ token: clusterInfo().adminToken }) });
    expect(token.via).toBe('static');
    expect((await new Kube(token).list('v1', 'Pod', ns.name)).items).toEqual([]);
    token.close();

    const plugin = path.join(tmpDir('st-cli-exec-'), 'credential.sh');
    fs.writeFileSync(
      plugin,
      `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${clusterInfo().adminToken}"}}'\n`,
      { mode: 0o755 },
    );
    const execKubeconfig = kubeconfigWith({
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' },
    });
    const exec = await connect({ kubeconfig: execKubeconfig });
    expect(exec.via).toBe('client-node');
    expect((await new Kube(exec).list('v1', 'Pod', ns.name)).items).toEqual([]);
    exec.close();
    // Named by a deployment file, a plugin runs only when the command line trusts the file (issue 27, item 3).
    const deploy = deploymentFiles(ns.name, '', { kubeconfig: execKubeconfig }).deploy;
    const untrusted = await run(['status', '--id', 'exec-plugin-0123456789ab', '-a', deploy]);
    expect(untrusted.code).toBe(64);
    expect(untrusted.err.join('\n')).toMatch(/it runs an exec credential plugin/);
    const viaCli = await run(['status', '--id', 'exec-plugin-0123456789ab', '-a', deploy, '--trust-deployment-file']);
    expect(viaCli.code).toBe(0);
    expect(viaCli.value('Status')).toBe('UNKNOWN');

    const forced = await connect({ kubeconfig: clusterInfo().kubeconfig, forceClientNode: true });
    expect(forced.via).toBe('client-node');
    expect((await new Kube(forced).list('v1', 'Pod', ns.name)).items).toEqual([]);
    forced.close();
  }),
);

test(
  'order: kubernetes.kubeconfig before KUBECONFIG before in-cluster; several KUBECONFIG files are merged',
  withComponentLogs(async () => {
    const dead = kubeconfigWith({ token: 'x' }, 'https://127.0.0.1:1');
    const both = await connect({ kubeconfig: clusterInfo().kubeconfig, env: { KUBECONFIG: dead } });
    expect(both.source).toBe('kubernetes.kubeconfig');
    await new Kube(both).list('v1', 'Pod', ns.name);
    both.close();

    const id = await serviceAccountIdentity(ns.name, 'default');
    const env = { KUBECONFIG: clusterInfo().kubeconfig, ...id.inClusterEnv };
    const fromEnv = await connect({ env, inClusterRoot: id.rootPrefix });
    expect(fromEnv.source).toBe('KUBECONFIG');
    fromEnv.close();

    // In a Pod: the ServiceAccount token (here the namespace's default account, which may read nothing).
    const inCluster = await connect({
      env: { ...id.inClusterEnv, HOME: tmpDir('st-cli-home-') },
      inClusterRoot: id.rootPrefix,
    });
    expect([inCluster.source, inCluster.via]).toEqual(['in-cluster', 'static']);
    await expect(new Kube(inCluster).list('v1', 'Pod', ns.name)).rejects.toThrow(
      new RegExp(`HTTP 403 Forbidden: .*system:serviceaccount:${ns.name}:default`),
    );
    inCluster.close();

    const second = kubeconfigWith({ token: 'unused' });
    const merged = await connect({ env: { KUBECONFIG: [clusterInfo().kubeconfig, second].join(path.delimiter) } });
    expect([merged.source, merged.via]).toEqual(['KUBECONFIG', 'client-node']);
    await new Kube(merged).list('v1', 'Pod', ns.name);
    merged.close();

    await expect(connect({ env: { HOME: tmpDir('st-cli-home-') } })).rejects.toThrow(
      /no Kubernetes connection: set kubernetes\.kubeconfig/,
    );
  }),
);

test(
  'the kubeconfig stays on this machine: no object of a submitted application mentions it',
  withComponentLogs(async () => {
    const files = deploymentFiles(ns.name);
    const r = await run(['submit', ...files.args]);
    expect(r.code).toBe(0);
    const appId = r.value('Application ID')!;
    const everything = JSON.stringify([...(await labelled(ns.name, appId)).values()]);
    expect(everything).not.toContain(clusterInfo().kubeconfig);
    expect(everything).not.toContain('kubeconfig');
    expect(everything).not.toContain(fs.readFileSync(clusterInfo().adminCertFile, 'utf8').split('\n')[1]);
    expect((await run(['cancel', '--id', appId, '-a', files.deploy])).code).toBe(0);
    await waitAllGone(ns.name, appId);
  }),
);
