// Bare Zeta in Pods, as a user deploys it with a plain manifest (bench/e2e --node, bench/failover
// --node): a member's Pod built from the application's own plan (its image, command line and size),
// the ConfigMap of engine files, the headless Service the masters' names resolve under, and the
// creation and removal of such a manifest. Each bench adds what its set-up needs on top.

import type { Container, Pod } from 'kubernetes-types/core/v1';
import { zetaCommand, zetaEnvironment } from '../lib/engine/command';
import type { ApplicationSpec } from '../lib/model/spec';
import type { ApplicationPlan } from '../lib/plan/types';
import { CONTAINER_NAME, kubeletCommand, kubeletLiteral, mainContainer } from '../lib/plan/pod';
import { adminHttp } from '../test/support/cluster';

export type Role = 'master' | 'worker';
/** Every object of one bare cluster carries `BARE_LABEL=<its group>`; its Pods also `ROLE_LABEL=<role>`. */
export const BARE_LABEL = 'bench.seatunnel-app/bare';
export const ROLE_LABEL = 'bench.seatunnel-app/role';
const CONFIG_DIR = '/etc/zeta';
const LOG_DIR = '/tmp/zeta-logs';

/** The application's main container of `role`: with HA the masters' StatefulSet's, else the Job's. */
export function planContainer(plan: ApplicationPlan, role: Role): Container {
  const pod =
    role === 'master'
      ? (plan.masters?.spec?.template.spec ?? plan.job.spec?.template.spec)
      : plan.workerTemplate.template?.spec;
  if (!pod) throw new Error(`the application's plan has no ${role} Pod`);
  return mainContainer(pod);
}

/**
 * One member `name` of the bare cluster `group`: the application's image, Zeta command line and
 * size for `role`, the engine files from `<group>-engine`, `env` beside Zeta's own. Runs once.
 */
export function memberPod(
  spec: ApplicationSpec,
  plan: ApplicationPlan,
  group: string,
  role: Role,
  name: string,
  env: Record<string, string> = {},
): Pod & { spec: { containers: Container[] } } {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { [BARE_LABEL]: group, [ROLE_LABEL]: role } },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      containers: [
        {
          name: CONTAINER_NAME,
          image: spec.image,
          imagePullPolicy: 'Never',
          command: kubeletCommand(zetaCommand(spec, role, { configDir: CONFIG_DIR, logDir: LOG_DIR })),
          env: Object.entries({ ...zetaEnvironment(), ...env }).map(([n, value]) => ({
            name: n,
            value: kubeletLiteral(value),
          })),
          resources: planContainer(plan, role).resources,
          volumeMounts: [
            { name: 'engine', mountPath: CONFIG_DIR, readOnly: true },
            { name: 'logs', mountPath: LOG_DIR },
          ],
        },
      ],
      volumes: [
        { name: 'engine', configMap: { name: `${group}-engine` } },
        { name: 'logs', emptyDir: {} },
      ],
    },
  };
}

/** The ConfigMap `<group>-engine` of the engine files and the headless Service `group` of the masters. */
export function engineFilesAndService(
  group: string,
  files: Record<string, string>,
  port: number,
): Array<Record<string, unknown>> {
  const labels = { [BARE_LABEL]: group };
  return [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${group}-engine`, labels }, data: files },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: group, labels },
      spec: {
        clusterIP: 'None',
        publishNotReadyAddresses: true,
        selector: { ...labels, [ROLE_LABEL]: 'master' },
        ports: [{ name: 'hazelcast', port }],
      },
    },
  ];
}

const RESOURCE_PATHS: Record<string, string> = { ConfigMap: 'configmaps', Service: 'services', Pod: 'pods' };
const objectPath = (namespace: string, o: { kind?: unknown }) =>
  `/api/v1/namespaces/${namespace}/${RESOURCE_PATHS[o.kind as string]}`;

/** Creates every object of a manifest at once. */
export async function createManifest(namespace: string, objects: ReadonlyArray<{ kind?: unknown }>): Promise<void> {
  await Promise.all(objects.map((o) => adminHttp().call('POST', objectPath(namespace, o), o)));
}

/** Deletes every object of a manifest (the Pods without a grace period); a missing one is no error. */
export async function removeManifest(
  namespace: string,
  objects: ReadonlyArray<{ kind?: unknown; metadata?: unknown }>,
): Promise<void> {
  for (const o of objects) {
    const name = (o.metadata as { name: string }).name;
    await adminHttp()
      .call('DELETE', `${objectPath(namespace, o)}/${name}?gracePeriodSeconds=0`, undefined, { accept: [404] })
      .catch(() => undefined);
  }
}
