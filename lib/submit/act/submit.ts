// submitApplication: the one operation with API side effects on the way in, in SeaTunnel's order
// and with its compensation guarantee (the equivalent of Spark's submit Client.run).
//
//   1. check every referenced object (and the keys read from it),     nothing created yet
//      and that the server serves every extension kind of the plan (the PodMonitor's CRD)
//   2. create the Job with spec.suspend = true, read its uid
//   3. create every dependent with an owner reference to that uid     in parallel
//   4. unsuspend: JSON patch [{"op":"replace","path":"/spec/suspend","value":false}]
//
// Compensation: any failure — including an ambiguous one (timeout, dropped connection, 5xx) — at
// steps 2-4 deletes exactly what this attempt created and throws a SubmitError carrying the
// original error(s) and every rollback error. "Created by this attempt" is decided per object:
// a create that answered 201 (uid known), or an ambiguous create whose object, read back, carries
// this attempt's random marker annotation. Every rollback delete has a uid precondition, so an
// object that merely has the same name (a pre-existing Job answering 409, an object someone else
// created) is never deleted.

import { randomBytes } from 'node:crypto';
import { LABELS } from '../../model/reserved';
import { dependents, withJobOwner } from '../../plan/build-plan';
import type { ApplicationPlan, KubeObject } from '../../plan/types';
import {
  describeError,
  describeRef,
  isStatus,
  type Kube,
  KubeApiError,
  refOf,
  withRetry,
  type AnyObject,
  type ObjectRef,
} from '../../kube';
import { checkReferences, type ReferenceProblem } from '../admit/references';
import { unservedKinds } from '../admit/served-apis';
import { readBeside } from './read-beside';

/** Marker of one submit attempt on every object it creates (how ambiguous creates are verified). */
export const SUBMIT_ATTEMPT_ANNOTATION = 'seatunnel.apache.org/submit-attempt';

export const FIELD_MANAGER = 'seatunnel-app';

/** `apis`: the server lacks an extension API the plan needs (lib/submit/admit/served-apis.ts). */
export type SubmitStep = 'references' | 'apis' | 'create-job' | 'create-dependents' | 'start';

export interface CreatedObject {
  readonly ref: ObjectRef;
  readonly uid: string;
  /** True when the create answered ambiguously and the marker proved the object ours. */
  readonly verified: boolean;
}

export interface SubmitResult {
  readonly attemptId: string;
  readonly job: CreatedObject;
  readonly dependents: readonly CreatedObject[];
}

export interface RollbackReport {
  /** Objects this attempt created and then deleted (or found already gone). */
  readonly deleted: readonly ObjectRef[];
  /** Objects with the same name that were not this attempt's and were left untouched. */
  readonly untouched: ReadonlyArray<{ ref: ObjectRef; why: string }>;
  readonly errors: readonly Error[];
}

export class SubmitError extends Error {
  constructor(
    readonly step: SubmitStep,
    /** The original failure(s), first one first. */
    readonly causes: readonly Error[],
    readonly rollback: RollbackReport,
    headline: string,
    readonly referenceProblems: readonly ReferenceProblem[] = [],
  ) {
    super(formatSubmitError(headline, rollback));
    this.name = 'SubmitError';
  }
}

function formatSubmitError(headline: string, rb: RollbackReport): string {
  const lines = [headline];
  if (rb.deleted.length)
    lines.push(
      `rolled back: deleted ${rb.deleted.length} object(s) this submission created: ${rb.deleted.map(describeRef).join(', ')}`,
    );
  for (const u of rb.untouched) lines.push(`left untouched: ${describeRef(u.ref)} (${u.why})`);
  if (rb.errors.length) {
    lines.push(`rollback errors (${rb.errors.length}); check with: seatunnel-app cancel --id <application ID>`);
    for (const e of rb.errors) lines.push(`  - ${e.message}`);
  }
  return lines.join('\n');
}

export interface SubmitOptions {
  /** Random by default; tests may fix it. */
  readonly attemptId?: string;
  /** Skip step 1 (the caller has just run the same checks). */
  readonly skipReferenceCheck?: boolean;
  /** Observes the steps (progress output, benchmarks). */
  readonly onStep?: (step: SubmitStep, phase: 'start' | 'end') => void;
  /** Receives each warning of the reference check (e.g. a SeaTunnel default application mode replaced). */
  readonly onNotice?: (message: string) => void;
  /**
   * Nothing is created before this settles, and if it rejects, its error is thrown as is; the reads
   * of step 1 go out beside it (read-beside.ts). The CLI's server-version check.
   */
  readonly writesWaitFor?: Promise<unknown>;
}

function marked<T extends KubeObject>(obj: T, attemptId: string): T {
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      annotations: { ...(obj.metadata.annotations ?? {}), [SUBMIT_ATTEMPT_ANNOTATION]: attemptId },
    },
  };
}

/**
 * The result of one create. A failure may still have created the object (an ambiguous answer
 * whose object carries this attempt's marker): `created` is then set, and it is rolled back.
 */
type Outcome =
  | { ok: true; created: CreatedObject }
  | {
      ok: false;
      error: Error;
      status?: number;
      created?: CreatedObject;
      untouched?: { ref: ObjectRef; why: string };
      verifyError?: Error;
    };

/**
 * Creates one object. A 201 is ours. A 409 is someone else's object. An ambiguous failure is
 * a failure too (SeaTunnel's rule), and reading the object back — comparing the attempt
 * marker — decides whether this attempt created it, i.e. whether the rollback deletes it.
 */
async function createOne(kube: Kube, obj: KubeObject, attemptId: string): Promise<Outcome> {
  const ref = refOf(obj);
  try {
    const res = await kube.create<AnyObject>(obj, ref.namespace, { fieldManager: FIELD_MANAGER });
    const uid = res.metadata?.uid;
    if (uid) return { ok: true, created: { ref, uid, verified: false } };
    // Not expected from an API server; treat as ambiguous below.
    throw new KubeApiError(500, 'NoUid', 'the API server answered without a uid', { method: 'POST', path: ref.name });
  } catch (e) {
    if (isStatus(e, 409)) {
      return {
        ok: false,
        error: new Error(
          `create ${describeRef(ref)}: it already exists and was not created by this submission: ${describeError(e)}`,
        ),
        untouched: { ref, why: 'it existed before this submission' },
      };
    }
    if (!(e instanceof KubeApiError) || !e.ambiguous)
      return {
        ok: false,
        error: new Error(`create ${describeRef(ref)}: ${describeError(e)}`),
        ...(e instanceof KubeApiError ? { status: e.status } : {}),
      };
    const error = new Error(
      `create ${describeRef(ref)}: ${describeError(e)} (the outcome was unknown; verified by reading it back)`,
    );
    try {
      const found = await verify(kube, ref, attemptId, e.status === 0);
      if (found === undefined) return { ok: false, error };
      if (found.ours) return { ok: false, error, created: { ref, uid: found.uid, verified: true } };
      return {
        ok: false,
        error,
        untouched: { ref, why: "an object of that name exists without this submission's marker" },
      };
    } catch (verifyError) {
      return {
        ok: false,
        error,
        verifyError: new Error(`cannot verify whether ${describeRef(ref)} was created: ${describeError(verifyError)}`),
      };
    }
  }
}

/**
 * Reads `ref` back after an ambiguous create. After a timeout or a dropped connection the create
 * may still be in flight, so a 404 is re-checked twice.
 */
async function verify(
  kube: Kube,
  ref: ObjectRef,
  attemptId: string,
  noResponse: boolean,
): Promise<{ ours: boolean; uid: string } | undefined> {
  const reads = noResponse ? 3 : 1;
  for (let i = 0; i < reads; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 500));
    const obj = await withRetry(() => kube.find<AnyObject>(ref, { metadataOnly: true }));
    if (obj?.metadata?.uid)
      return { ours: obj.metadata.annotations?.[SUBMIT_ATTEMPT_ANNOTATION] === attemptId, uid: obj.metadata.uid };
  }
  return undefined;
}

/** Deletes what this attempt created: each object by uid; the Job in the foreground; its Pods by label. */
export async function rollback(
  kube: Kube,
  created: readonly CreatedObject[],
  opts: { job?: CreatedObject; appId: string; podsMayExist: boolean },
): Promise<{ deleted: ObjectRef[]; untouched: Array<{ ref: ObjectRef; why: string }>; errors: Error[] }> {
  const deleted: ObjectRef[] = [];
  const untouched: Array<{ ref: ObjectRef; why: string }> = [];
  const errors: Error[] = [];
  const one = async (c: CreatedObject, isJob: boolean) => {
    try {
      await withRetry(() =>
        kube.delete(c.ref, {
          uid: c.uid,
          propagationPolicy: isJob ? 'Foreground' : 'Background',
          ...(isJob ? { gracePeriodSeconds: 0 } : {}),
        }),
      );
      deleted.push(c.ref);
    } catch (e) {
      if (isStatus(e, 404)) deleted.push(c.ref);
      else if (isStatus(e, 409))
        untouched.push({ ref: c.ref, why: 'the name now belongs to another object (uid precondition failed)' });
      else errors.push(new Error(`delete ${describeRef(c.ref)}: ${describeError(e)}`));
    }
  };
  const tasks: Array<Promise<void>> = created.map((c) => one(c, false));
  if (opts.job) tasks.push(one(opts.job, true));
  if (opts.job && opts.podsMayExist) {
    // The Job may have started its master Pod (and the runtime its workers) already.
    const ns = opts.job.ref.namespace;
    tasks.push(
      withRetry(() =>
        kube.deleteCollection('v1', 'Pod', ns, `${LABELS.applicationId}=${opts.appId}`, { gracePeriodSeconds: 0 }),
      )
        .then(() => undefined)
        .catch((e) => {
          errors.push(
            new Error(`delete Pods with ${LABELS.applicationId}=${opts.appId} in ${ns}: ${describeError(e)}`),
          );
        }),
    );
  }
  await Promise.all(tasks);
  // Report the Job first, then the dependents in creation order.
  const order = [opts.job?.ref, ...created.map((c) => c.ref)].filter((r): r is ObjectRef => !!r);
  deleted.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return { deleted, untouched, errors };
}

/**
 * Creates the dependents in parallel. One ordering constraint comes from the API server: for a
 * caller without the `bind` verb, creating a RoleBinding checks the permissions of the Role it
 * references, which answers 404 while that Role (created in the same batch) does not exist yet.
 * Such a RoleBinding is created again once its Role was created — a 404 means it was not created,
 * so the retry is safe. Callers with `bind` (or cluster admins) never pay that second round trip.
 */
async function createDependents(kube: Kube, objs: readonly KubeObject[], attemptId: string): Promise<Outcome[]> {
  const roles = new Map<string, Promise<Outcome>>();
  const first = objs.map((o) => {
    const p = createOne(kube, o, attemptId);
    if (o.kind === 'Role') roles.set(o.metadata.name, p);
    return p;
  });
  return Promise.all(
    objs.map(async (o, i) => {
      const out = await first[i];
      const roleRef =
        o.kind === 'RoleBinding' ? (o as { roleRef?: { kind?: string; name?: string } }).roleRef : undefined;
      const role = roleRef?.kind === 'Role' && roleRef.name ? roles.get(roleRef.name) : undefined;
      if (!out.ok && out.status === 404 && role && (await role).ok) return createOne(kube, o, attemptId);
      return out;
    }),
  );
}

export function newAttemptId(): string {
  return randomBytes(8).toString('hex');
}

export async function submitApplication(
  kube: Kube,
  plan: ApplicationPlan,
  opts: SubmitOptions = {},
): Promise<SubmitResult> {
  const attemptId = opts.attemptId ?? newAttemptId();
  const spec = plan.spec;
  const step = async <T>(name: SubmitStep, fn: () => Promise<T>): Promise<T> => {
    opts.onStep?.(name, 'start');
    try {
      return await fn();
    } finally {
      opts.onStep?.(name, 'end');
    }
  };
  const noRollback: RollbackReport = { deleted: [], untouched: [], errors: [] };

  // 1. Referenced objects and extension APIs, before anything is created; the caller's gate in the
  // same round trip.
  const [references, unserved] = await readBeside(opts.writesWaitFor, () =>
    Promise.all([
      opts.skipReferenceCheck
        ? undefined
        : step('references', async () => {
            try {
              return await checkReferences(kube, spec);
            } catch (e) {
              throw new SubmitError(
                'references',
                [e as Error],
                noRollback,
                `submit failed before creating anything: checking referenced objects: ${describeError(e)}`,
              );
            }
          }),
      unservedKinds(kube, plan).catch((e: unknown) => {
        throw new SubmitError(
          'apis',
          [e as Error],
          noRollback,
          `submit failed before creating anything: reading the API server's discovery: ${describeError(e)}`,
        );
      }),
    ]),
  );
  if (unserved.length)
    throw new SubmitError(
      'apis',
      unserved.map((u) => new Error(u.message)),
      noRollback,
      `submit refused before creating anything: ${unserved.map((u) => u.message).join('\n')}`,
    );
  if (references) {
    const { problems, notices } = references;
    for (const n of notices) opts.onNotice?.(n.message);
    if (problems.length) {
      throw new SubmitError(
        'references',
        problems.map((p) => new Error(p.message)),
        noRollback,
        `submit refused before creating anything: ${problems.length} referenced object problem(s):\n${problems.map((p) => `  - ${p.message}`).join('\n')}`,
        problems,
      );
    }
  }

  // 2. The suspended Job.
  const jobObj = marked({ ...plan.job, spec: { ...plan.job.spec!, suspend: true } }, attemptId);
  const jobOutcome = await step('create-job', () => createOne(kube, jobObj, attemptId));
  if (!jobOutcome.ok) {
    const untouched = jobOutcome.untouched ? [jobOutcome.untouched] : [];
    const rb = jobOutcome.created
      ? await rollback(kube, [], { job: jobOutcome.created, appId: spec.appId, podsMayExist: false })
      : { deleted: [], untouched: [], errors: [] };
    const errors = [...(jobOutcome.verifyError ? [jobOutcome.verifyError] : []), ...rb.errors];
    throw new SubmitError(
      'create-job',
      [jobOutcome.error],
      { deleted: rb.deleted, untouched: [...untouched, ...rb.untouched], errors },
      `submit failed: ${jobOutcome.error.message}`,
    );
  }
  const job = jobOutcome.created;

  const fail = async (
    stepName: SubmitStep,
    causes: Error[],
    created: CreatedObject[],
    extra: { untouched?: Array<{ ref: ObjectRef; why: string }>; errors?: Error[] } = {},
  ): Promise<never> => {
    const rb = await rollback(kube, created, { job, appId: spec.appId, podsMayExist: stepName === 'start' });
    const report: RollbackReport = {
      deleted: rb.deleted,
      untouched: [...(extra.untouched ?? []), ...rb.untouched],
      errors: [...(extra.errors ?? []), ...rb.errors],
    };
    const more =
      causes.length > 1
        ? `\nalso failed:\n${causes
            .slice(1)
            .map((c) => `  - ${c.message}`)
            .join('\n')}`
        : '';
    throw new SubmitError(stepName, causes, report, `submit failed: ${causes[0].message}${more}`);
  };

  // 3. Dependents, owned by the Job, in parallel.
  const objs = dependents(plan).map((d) => marked(withJobOwner(d, job.ref.name, job.uid), attemptId));
  const outcomes = await step('create-dependents', () => createDependents(kube, objs, attemptId));
  const created = outcomes.flatMap((o) => (o.created ? [o.created] : []));
  const failures = outcomes.flatMap((o) => (o.ok ? [] : [o]));
  if (failures.length) {
    await fail(
      'create-dependents',
      failures.map((f) => f.error),
      created,
      {
        untouched: failures.flatMap((f) => (f.untouched ? [f.untouched] : [])),
        // An unverifiable dependent carries the Job's owner reference: the garbage collector removes it with the Job.
        errors: failures.flatMap((f) =>
          f.verifyError
            ? [
                new Error(
                  `${f.verifyError.message} (if it exists, it is owned by the deleted Job and garbage-collected with it)`,
                ),
              ]
            : [],
        ),
      },
    );
  }

  // 4. Start: unsuspend with a JSON patch (concurrent controller updates are not overwritten).
  try {
    await step('start', () => kube.jsonPatch(job.ref, [{ op: 'replace', path: '/spec/suspend', value: false }]));
  } catch (e) {
    const ambiguous =
      e instanceof KubeApiError && e.ambiguous ? ' (the Job may have started; it is deleted with its Pods)' : '';
    await fail(
      'start',
      [new Error(`start (unsuspend) ${describeRef(job.ref)}: ${describeError(e)}${ambiguous}`)],
      created,
    );
  }
  return { attemptId, job, dependents: created };
}
