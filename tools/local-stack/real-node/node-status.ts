// Reading a Node's state: its conditions as the API reports them, and a plain HTTP health check
// (kube-proxy's /healthz on the node address, reached from the host through the node's veth pair).
import * as http from 'node:http';

export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

/** The parts of a Node the harness reads. */
export interface NodeObject {
  metadata: { name: string; labels?: Record<string, string> };
  spec?: { podCIDR?: string; taints?: Array<{ key: string; value?: string; effect: string }> };
  status?: { conditions?: NodeCondition[]; addresses?: Array<{ type: string; address: string }> };
}

export function nodeCondition(node: NodeObject, type: string): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === type);
}

export function httpOk(url: string): Promise<true> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      res.resume();
      if (res.statusCode === 200) resolve(true);
      else reject(new Error(`${url}: HTTP ${res.statusCode}`));
    });
    req.setTimeout(3000, () => req.destroy(new Error(`${url}: no answer within 3 s`)));
    req.on('error', reject);
  });
}
