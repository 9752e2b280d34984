import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import { FENCE_MARK_GROUP, FENCE_MARKS } from '../../../lib/plan/fence-cel';
import { reservedEnvProblem } from '../../../lib/model/reserved';
import type { ApplicationPlan } from '../../../lib/plan/types';
import { kubeletExpand } from '../../../tools/local-stack/kubelet-expansion';
import { plan } from '../../support/fixtures';
import { env, main, masterPod, workerPod } from './helpers';

const HA = { haEnabled: true, checkpointPvc: 'ckpt' } as const;
const haMasterPod = (p: ApplicationPlan): PodSpec => p.masters!.spec!.template.spec!;

/** The user's part of a container's environment: what the plan sets itself is reserved. */
const userEnv = (c: Container) => (c.env ?? []).filter((e) => !reservedEnvProblem(e.name));

describe('environment step', () => {
  const SHARED = {
    env: {
      LITERAL: 'x',
      FROM_SECRET: { secret: 'db', key: 'password' },
      FROM_CM: { configmap: 'cfg', key: 'k', optional: true },
      VAL: { value: 'v' },
    },
    envFrom: { common: { configmap: 'team-env', prefix: 'TEAM_' }, creds: { secret: 'creds', optional: true } },
  } as const;
  const p = plan(SHARED);
  const c = main(masterPod(p));

  test('literal, Secret-key and ConfigMap-key variables on the master', () => {
    expect(env(c, 'LITERAL')).toEqual({ name: 'LITERAL', value: 'x' });
    expect(env(c, 'VAL')).toEqual({ name: 'VAL', value: 'v' });
    expect(env(c, 'FROM_SECRET')).toEqual({
      name: 'FROM_SECRET',
      valueFrom: { secretKeyRef: { name: 'db', key: 'password' } },
    });
    expect(env(c, 'FROM_CM')).toEqual({
      name: 'FROM_CM',
      valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k', optional: true } },
    });
  });

  test('envFrom on the master', () => {
    expect(c.envFrom).toEqual([
      { prefix: 'TEAM_', configMapRef: { name: 'team-env' } },
      { secretRef: { name: 'creds', optional: true } },
    ]);
  });

  test('the workers get the same environment: connectors run there', () => {
    const w = main(workerPod(p));
    expect(userEnv(w)).toEqual(userEnv(c));
    expect(userEnv(w).map((e) => e.name)).toEqual(['LITERAL', 'FROM_SECRET', 'FROM_CM', 'VAL']);
    expect(w.envFrom).toEqual(c.envFrom);
  });

  test('with HA: the coordinator, the masters and the workers, each the same', () => {
    const h = plan({ ...SHARED, ...HA });
    const containers = [main(masterPod(h)), main(haMasterPod(h)), main(workerPod(h))];
    for (const x of containers) {
      expect(userEnv(x)).toEqual(userEnv(c));
      expect(x.envFrom).toEqual(c.envFrom);
    }
  });

  test('only the main container: the init containers run this tool’s own code', () => {
    const h = plan({ ...SHARED, ...HA, runtimeConfigMap: 'st-config' });
    for (const pod of [masterPod(h), haMasterPod(h), workerPod(h)]) {
      expect(pod.initContainers?.length).toBeGreaterThan(0);
      for (const init of pod.initContainers ?? []) {
        expect(init.env?.some((e) => e.name === 'LITERAL')).toBeFalsy();
        expect(init.envFrom).toBeUndefined();
      }
    }
  });

  test('without any, no envFrom field on any Pod', () => {
    const bare = plan();
    for (const pod of [masterPod(bare), workerPod(bare)]) expect(main(pod).envFrom).toBeUndefined();
  });
});

describe('per-role environment', () => {
  const p = plan({
    env: { SHARED: 's', TZ: 'UTC', DB_PASSWORD: { secret: 'db', key: 'password' } },
    envFrom: { team: { configmap: 'team-env' }, tuning: { configmap: 'tuning-default' } },
    masterEnv: { TZ: 'Asia/Shanghai', ONLY_MASTER: 'm' },
    workerEnv: { DB_PASSWORD: { secret: 'db-readonly', key: 'password' }, ONLY_WORKERS: 'w' },
    workerEnvFrom: { tuning: { configmap: 'tuning-workers', prefix: 'T_' }, aws: { secret: 'aws-creds' } },
    masterEnvFrom: { extra: { secret: 'master-only' } },
  });
  const m = main(masterPod(p));
  const w = main(workerPod(p));

  test('a role’s own variable replaces the shared one of its name in place; its others follow', () => {
    expect(userEnv(m)).toEqual([
      { name: 'SHARED', value: 's' },
      { name: 'TZ', value: 'Asia/Shanghai' },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      { name: 'ONLY_MASTER', value: 'm' },
    ]);
    expect(userEnv(w)).toEqual([
      { name: 'SHARED', value: 's' },
      { name: 'TZ', value: 'UTC' },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-readonly', key: 'password' } } },
      { name: 'ONLY_WORKERS', value: 'w' },
    ]);
  });

  test('env-from entries: replaced by entry name in place (the order decides which source wins a key)', () => {
    expect(m.envFrom).toEqual([
      { configMapRef: { name: 'team-env' } },
      { configMapRef: { name: 'tuning-default' } },
      { secretRef: { name: 'master-only' } },
    ]);
    expect(w.envFrom).toEqual([
      { configMapRef: { name: 'team-env' } },
      { prefix: 'T_', configMapRef: { name: 'tuning-workers' } },
      { secretRef: { name: 'aws-creds' } },
    ]);
  });

  test('with HA the master role’s form reaches the coordinator and the masters, not the workers', () => {
    const h = plan({ ...HA, masterEnv: { ONLY_MASTER: 'm' }, workerEnv: { ONLY_WORKERS: 'w' } });
    for (const pod of [masterPod(h), haMasterPod(h)]) {
      expect(env(main(pod), 'ONLY_MASTER')).toEqual({ name: 'ONLY_MASTER', value: 'm' });
      expect(env(main(pod), 'ONLY_WORKERS')).toBeUndefined();
    }
    expect(env(main(workerPod(h)), 'ONLY_WORKERS')).toEqual({ name: 'ONLY_WORKERS', value: 'w' });
    expect(env(main(workerPod(h)), 'ONLY_MASTER')).toBeUndefined();
  });

  test("the fence's marks list exactly the Secrets and ConfigMaps the workers' environment names", () => {
    const rules = p.roles.find((r) => r.metadata.name === `${p.spec.appId}-runtime`)!.rules!;
    const marked = (mark: { resource: string }) =>
      rules.find((r) => r.apiGroups?.includes(FENCE_MARK_GROUP) && r.resources?.includes(mark.resource))?.resourceNames;
    expect(marked(FENCE_MARKS.secrets)).toEqual(['aws-creds', 'db-readonly']);
    expect(marked(FENCE_MARKS.configMaps)).toEqual(expect.arrayContaining(['team-env', 'tuning-workers']));
    expect(marked(FENCE_MARKS.configMaps)).not.toContain('tuning-default');
    expect(marked(FENCE_MARKS.secrets)).not.toContain('master-only');
  });
});

describe('every role receives a `$` verbatim', () => {
  const VALUE = 'a$(SEATUNNEL_POD_NAME)b$$c$(HOME)$';
  const KUBELET_VARS = { SEATUNNEL_POD_NAME: 'orders-abcde', HOME: '/root' };
  test.each([
    ['the master', (p: ApplicationPlan) => masterPod(p), {}],
    ['the workers', (p: ApplicationPlan) => workerPod(p), {}],
    ['the HA coordinator', (p: ApplicationPlan) => masterPod(p), HA],
    ['the HA masters', (p: ApplicationPlan) => haMasterPod(p), HA],
    ['the HA workers', (p: ApplicationPlan) => workerPod(p), HA],
  ])('%s', (_, pod, extra) => {
    const p = plan({ ...extra, env: { SHARED: VALUE }, masterEnv: { OWN: VALUE }, workerEnv: { OWN: VALUE } });
    for (const name of ['SHARED', 'OWN'])
      expect(kubeletExpand(env(main(pod(p)), name)!.value!, KUBELET_VARS)).toBe(VALUE);
  });
});

test('every variable the plan sets on any container is a reserved name, so no user variable can meet one', () => {
  const pods = (p: ApplicationPlan) => [masterPod(p), workerPod(p), ...(p.masters ? [haMasterPod(p)] : [])];
  for (const p of [plan(), plan({ ...HA, runtimeConfigMap: 'st-config' }), plan({ runtimeConfigMap: 'st-config' })])
    for (const pod of pods(p))
      for (const c of [...pod.containers, ...(pod.initContainers ?? [])])
        for (const e of c.env ?? []) expect([e.name, reservedEnvProblem(e.name)]).toEqual([e.name, expect.any(String)]);
});
