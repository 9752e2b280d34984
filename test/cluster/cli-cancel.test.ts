// `seatunnel-app cancel`: deletes the Job (foreground) and every labelled leftover, never a
// referenced object or the checkpoint PVC; idempotent. Also for an application applied as plain
// YAML (`synth` output created object by object, as `kubectl apply -f` does), whose dependents
// carry no owner reference until the runtime adopts them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { LABELS } from '../../lib/model/reserved';
import { KWOK_LIFECYCLE_ANNOTATION, adminHttp, useTestNamespace, waitFor, withComponentLogs } from '../support/cluster';
import {
  createObj,
  deploymentFiles,
  getObj,
  labelled,
  randomSuffix,
  run,
  submitWarnings,
  tmpDir,
  waitAllGone,
  type Obj,
} from './cli-support';

const ns = useTestNamespace('cli-cancel');

/** The objects an application references but does not own, created up front. */
async function referenced(): Promise<Obj[]> {
  return [
    {
      ...(await createObj(ns.name, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `db-${randomSuffix(3)}` },
        stringData: { password: 'p' },
      })),
      kind: 'Secret',
    },
    {
      ...(await createObj(ns.name, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `drivers-${randomSuffix(3)}` },
        data: { 'mysql.properties': 'x=1' },
      })),
      kind: 'ConfigMap',
    },
    { ...(await boundClaim()), kind: 'PersistentVolumeClaim' },
  ];
}

/** A PVC bound to a PV of its own (an unbound claim would keep the master Pod unschedulable). */
async function boundClaim(): Promise<Obj> {
  const name = `ckpt-${randomSuffix(3)}`;
  const pv = await adminHttp().call<Obj>('POST', '/api/v1/persistentvolumes', {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: `${ns.name}-${name}` },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'manual',
      hostPath: { path: `/nonexistent/${name}` },
      claimRef: { namespace: ns.name, name },
    },
  });
  volumes.push(pv.metadata.name);
  const pvc = await createObj(ns.name, {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'manual',
      volumeName: pv.metadata.name,
      resources: { requests: { storage: '1Gi' } },
    },
  });
  await waitFor(
    async () =>
      ((await getObj(ns.name, 'PersistentVolumeClaim', name)) as { status?: { phase?: string } } | undefined)?.status
        ?.phase === 'Bound' || undefined,
    { description: `PVC ${name} to be Bound` },
  );
  return pvc;
}

const volumes: string[] = [];
afterAll(async () => {
  for (const v of volumes)
    await adminHttp().call('DELETE', `/api/v1/persistentvolumes/${v}`, undefined, { accept: [404] });
});

function usingThem(refs: Obj[]): string {
  const [secret, cm, pvc] = refs.map((r) => r.metadata.name);
  return `
kubernetes {
  master.annotations { "${KWOK_LIFECYCLE_ANNOTATION}" = "no-complete" }
  env.DB_PASSWORD { secret = ${secret}, key = password }
  configmap.drivers { ref = ${cm}, mounts { "mysql.properties" = "/opt/seatunnel/config/mysql.properties" } }
  checkpoint-pvc = ${pvc}
  secret.owned { data { token = "t" } }
}`;
}

async function expectUntouched(refs: Obj[]): Promise<void> {
  for (const r of refs) {
    const now = await getObj(ns.name, r.kind!, r.metadata.name);
    expect({ kind: r.kind, uid: now?.metadata.uid, deleting: now?.metadata.deletionTimestamp }).toEqual({
      kind: r.kind,
      uid: r.metadata.uid,
      deleting: undefined,
    });
  }
  const sa = await getObj(ns.name, 'ServiceAccount', 'default');
  expect(sa?.metadata.deletionTimestamp).toBeUndefined();
}

test(
  'cancel deletes a running application and everything labelled with it, not the referenced objects; a second cancel succeeds too',
  withComponentLogs(async () => {
    const refs = await referenced();
    const files = deploymentFiles(ns.name, usingThem(refs));
    const submitted = await run(['submit', ...files.args]);
    expect(submitted.err).toEqual(submitWarnings());
    const appId = submitted.value('Application ID')!;
    await waitFor(
      async () =>
        (await run(['status', '--id', appId, '-a', files.deploy])).value('Status') === 'RUNNING' ? true : undefined,
      {
        description: `${appId} RUNNING`,
      },
    );

    const first = await run(['cancel', '-t', 'kubernetes', '--id', appId, '-a', files.deploy]);
    expect(first.code).toBe(0);
    expect(first.out).toEqual([`Application ID: ${appId}`, 'Cancellation requested']);
    // Right after: the Job is being deleted (CANCELED) or already gone (UNKNOWN) — never RUNNING.
    expect(['CANCELED', 'UNKNOWN']).toContain(
      (await run(['status', '--id', appId, '-a', files.deploy])).value('Status'),
    );
    await waitAllGone(ns.name, appId);
    await expectUntouched(refs);

    const second = await run(['cancel', '--id', appId, '-a', files.deploy, '--output', 'json'], { json: true });
    expect(second.code).toBe(0);
    expect(second.data[0]).toMatchObject({
      applicationId: appId,
      cancellationRequested: true,
      jobFound: false,
      errors: [],
    });
    const third = await run(['cancel', '--id', appId, '-a', files.deploy]);
    expect(third.out).toEqual([`Application ID: ${appId}`, 'Cancellation requested']);
    expect((await run(['status', '--id', appId, '-a', files.deploy])).value('Status')).toBe('UNKNOWN');
    await expectUntouched(refs);
  }),
);

test(
  'synthesized YAML applied object by object in file order runs, and cancel removes it although its dependents have no owner references',
  withComponentLogs(async () => {
    const refs = await referenced();
    const files = deploymentFiles(ns.name, usingThem(refs), { name: 'applied' });
    const out = tmpDir('st-cli-synth-');
    const synth = await run(['synth', ...files.args, '-o', out]);
    expect(synth.code).toBe(0);
    const appId = synth.value('Application ID')!;
    const [file] = fs.readdirSync(out);
    const docs = parseAllDocuments(fs.readFileSync(path.join(out, file), 'utf8')).map(
      (d) => d.toJS() as { apiVersion: string; kind: string; metadata: { name: string } },
    );
    expect(docs[docs.length - 1].kind).toBe('Job');
    // What `kubectl apply -f` does for new objects: create each, in file order.
    for (const d of docs) await createObj(ns.name, d);

    const objs = await labelled(ns.name, appId);
    const dependents = [...objs].filter(([k]) => !k.startsWith('Job/') && !k.startsWith('Pod/'));
    expect(dependents.length).toBe(docs.length - 1);
    for (const [, o] of dependents) expect(o.metadata.ownerReferences).toBeUndefined(); // until the runtime adopts them
    await waitFor(
      async () =>
        (await run(['status', '--id', appId, '-a', files.deploy])).value('Status') === 'RUNNING' ? true : undefined,
      {
        description: `${appId} RUNNING`,
      },
    );

    const r = await run(['cancel', '--id', appId, '-a', files.deploy, '--output', 'json'], { json: true });
    expect(r.code).toBe(0);
    const data = r.data[0] as { jobFound: boolean; leftoversDeleted: string[] };
    expect(data.jobFound).toBe(true);
    // Without owner references nothing is garbage-collected: cancel deleted each of them by label.
    expect(data.leftoversDeleted.map((x) => x.split(' ')[0]).sort()).toEqual(
      dependents.map(([k]) => k.split('/')[0]).sort(),
    );
    await waitAllGone(ns.name, appId);
    await expectUntouched(refs);
  }),
);

test(
  'an object that carries the application label but was not made by this tool is left alone',
  withComponentLogs(async () => {
    const files = deploymentFiles(
      ns.name,
      `kubernetes.master.annotations { "${KWOK_LIFECYCLE_ANNOTATION}" = "no-complete" }`,
    );
    const appId = (await run(['submit', ...files.args])).value('Application ID')!;
    const foreign = await createObj(ns.name, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${appId}-notes`, labels: { [LABELS.applicationId]: appId } },
      data: { note: 'mine' },
    });
    expect((await run(['cancel', '--id', appId, '-a', files.deploy])).code).toBe(0);
    await waitAllGone(ns.name, appId, [foreign.metadata.uid]);
    expect((await getObj(ns.name, 'ConfigMap', `${appId}-notes`))?.metadata.uid).toBe(foreign.metadata.uid);
  }),
);

test(
  "an application whose Job's application-id label was changed (a runtime can, without the admission fence) is still cancelled",
  withComponentLogs(async () => {
    const files = deploymentFiles(ns.name, '', { name: 'relabelled' });
    const submitted = await run(['submit', ...files.args]);
    expect(submitted.code).toBe(0);
    const appId = submitted.value('Application ID')!;
    await adminHttp().call(
      'PATCH',
      `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
      { metadata: { labels: { [LABELS.applicationId]: 'someone-else' } } },
      { contentType: 'application/merge-patch+json' },
    );
    const r = await run(['cancel', '--id', appId, '-a', files.deploy]);
    expect([r.code, r.err]).toEqual([0, []]);
    await waitAllGone(ns.name, appId);
    // The Job no longer carries the label waitAllGone looks for; its foreground deletion may still run.
    await waitFor(async () => (await getObj(ns.name, 'Job', appId)) === undefined, {
      description: `Job ${ns.name}/${appId} to be gone`,
    });
  }),
);

test(
  'a Job of that name that is not an application is refused, untouched (a mistyped --id deletes nothing)',
  withComponentLogs(async () => {
    const name = `plain-job-${randomSuffix(6)}`;
    const job = await createObj(ns.name, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } },
    });
    const r = await run(['cancel', '--id', name, '-a', deploymentFiles(ns.name).deploy]);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(
      new RegExp(`Job ${ns.name}/${name} is not a SeaTunnel application .* nothing was deleted`),
    );
    expect((await getObj(ns.name, 'Job', name))?.metadata.uid).toBe(job.metadata.uid);
    await adminHttp().call('DELETE', `/apis/batch/v1/namespaces/${ns.name}/jobs/${name}`);
  }),
);
