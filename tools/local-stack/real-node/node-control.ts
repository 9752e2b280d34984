// The faults of a node cluster from another process. A Jest test file runs in a worker, not in the
// process that owns the cluster (globalSetup, `npm run node-cluster`), so it asks that process
// through the control endpoint (control-server.ts); the owner runs the fault on its RealNode and
// answers when it is done. Both sides implement the same interfaces (NodeFaults, ApiServerFaults).
//
//   const faults = remoteFaults(info.control!);
//   await faults.node('seatunnel-node-2').cutOff();
//   await faults.apiServer.stopApiServer();
import { controlRequest, type ControlEndpoint, type ControlRoutes } from '../control-server';
import type { NodeCluster } from './node-cluster';
import type { NodeFaults } from './real-node';

export interface ApiServerFaults {
  /** 'kill' (default): an outage, SIGKILL; 'graceful': an upgrade's restart. See ControlPlane.stopApiServer. */
  stopApiServer(mode?: 'kill' | 'graceful'): Promise<void>;
  startApiServer(): Promise<void>;
}

/** Each fault's path segment on the control endpoint. */
const NODE_ACTIONS: Record<keyof NodeFaults, string> = {
  stop: 'stop',
  restart: 'restart',
  freeze: 'freeze',
  thaw: 'thaw',
  cutOff: 'cut-off',
  heal: 'heal',
};

/** The control endpoint's routes for a node cluster's faults (served by its owner). */
export function nodeClusterRoutes(nc: NodeCluster): ControlRoutes {
  const routes: ControlRoutes = {
    'POST /kube-apiserver/stop': () => nc.stopApiServer('kill').then(() => ({ done: 'stop' })),
    'POST /kube-apiserver/stop-graceful': () => nc.stopApiServer('graceful').then(() => ({ done: 'stop-graceful' })),
    'POST /kube-apiserver/start': () => nc.startApiServer().then(() => ({ done: 'start' })),
  };
  for (const node of nc.nodes)
    for (const [method, segment] of Object.entries(NODE_ACTIONS) as Array<[keyof NodeFaults, string]>)
      routes[`POST /nodes/${node.name}/${segment}`] = () =>
        node[method]().then(() => ({ node: node.name, done: segment }));
  return routes;
}

export interface RemoteFaults {
  node(name: string): NodeFaults;
  apiServer: ApiServerFaults;
}

/** Faults of the cluster whose owner serves `control` (ClusterInfo.control). */
export function remoteFaults(control: ControlEndpoint, timeoutMs = 300_000): RemoteFaults {
  const post = (p: string) => controlRequest(control, 'POST', p, timeoutMs).then(() => undefined);
  return {
    node(name: string): NodeFaults {
      const at = (action: keyof NodeFaults) => () => post(`/nodes/${encodeURIComponent(name)}/${NODE_ACTIONS[action]}`);
      return {
        stop: at('stop'),
        restart: at('restart'),
        freeze: at('freeze'),
        thaw: at('thaw'),
        cutOff: at('cutOff'),
        heal: at('heal'),
      };
    },
    apiServer: {
      stopApiServer: (mode = 'kill') =>
        post(mode === 'kill' ? '/kube-apiserver/stop' : '/kube-apiserver/stop-graceful'),
      startApiServer: () => post('/kube-apiserver/start'),
    },
  };
}
