// A set of HA masters (docs/ha.md): a StatefulSet runs Zeta's masters, this Pod is a coordinator.
// Kubernetes keeps the masters' Pods and addresses, Zeta elects and recovers; the coordinator
// creates the workers (owned by the Job, never by a Pod that can be replaced), submits the job
// once through the masters' ClusterIP Service, follows it and cleans up. A coordinator may be
// replaced at any moment, so the one submission is guarded (docs/ha.md, "Re-attaching"):
//
//   * before the job is sent, the coordinator writes the submission-intent annotation on the Job
//     with the Job's resourceVersion as a precondition, and sends nothing until the API server
//     confirmed it. Two coordinators cannot both claim it; a coordinator that cannot write it
//     waits (the API server away) and never sends the job unclaimed;
//   * a coordinator that finds an intent (its own lost answer, or an earlier coordinator's) never
//     submits: it follows the job once Zeta knows it, and ends JobLost when Zeta answers that it
//     does not — it cannot prove the job never ran, so it never guesses "no".

import { ANNOTATIONS, jobOwnerReference, names, type HaRuntimeSettings } from 'seatunnel-app/runtime-support';
import { isStatus, isTransient } from '../kube/port';
import { RuntimeFailure } from '../outcome';
import { reattachment } from '../policy';
import { readJob } from '../steps/kube-context';
import { awaitMasters, MastersWatch, removeMasters } from './masters-watch';
import { waitForEngine } from '../steps/engine-start';
import type { Step } from '../steps/context';
import { backoffMs, errorMessage } from '../util';
import type { MasterTopology, SubmissionClaim } from './topology';

/** Whether an earlier coordinator of this Job claimed or made the submission. */
export function submissionRecorded(annotations: Readonly<Record<string, string>>): boolean {
  return Boolean(annotations[ANNOTATIONS.submissionIntent] || annotations[ANNOTATIONS.submittedAt]);
}

export function haMasters(s: Step, ha: HaRuntimeSettings): MasterTopology {
  const { settings, kube, clock, log } = s.deps;
  const app = settings.app;
  const expected = app.restoreJobId ?? app.jobId;
  let watch: MastersWatch | undefined;

  /** Follows the job an earlier claim sent: its id once Zeta knows it; JobLost when Zeta answers it does not. */
  async function knownJob(): Promise<string> {
    const began = clock.now();
    for (;;) {
      s.interruption.throwIfSet();
      let answered = false;
      let status: string | undefined;
      try {
        status = (await s.interruption.guard(s.deps.engine.jobInfo(expected))).status;
        answered = true;
      } catch (e) {
        if (e instanceof RuntimeFailure) throw e;
        log.debug('asking Zeta for the job failed', { error: errorMessage(e) });
      }
      const what = reattachment({
        recorded: true,
        answered,
        zetaStatus: status,
        askedForMs: clock.now() - began,
        limitMs: s.tuning.engineUnreachableMs,
      });
      if (what === 'follow' && status) {
        s.state.acked = { jobId: expected, restored: app.restoreJobId !== undefined };
        s.state.zetaStatus = status;
        s.state.registered = app.workerCount;
        log.info('re-attached to the running job', { jobId: expected, status });
        s.setPhase('Running', {
          zetaJobId: expected,
          zetaJobStatus: status,
          workersRegistered: String(app.workerCount),
        });
        s.reporter.event(
          'Normal',
          'Reattached',
          `re-attached to Zeta job ${expected} (${status}); it is not submitted again`,
        );
        return expected;
      }
      if (what === 'lost') {
        throw new RuntimeFailure(
          'JobLost',
          `Zeta job ${expected} was claimed for submission by an earlier coordinator but no master knows it (every master was lost, or the coordinator stopped before sending it); it is never submitted twice: restore it from its checkpoints with a new application (--restore-job-id ${expected})`,
        );
      }
      if (what === 'unreachable') {
        throw new RuntimeFailure(
          'EngineUnreachable',
          `Zeta could not be asked about job ${expected} for ${Math.round(s.tuning.engineUnreachableMs / 1000)} s; it was claimed for submission before, so it is not submitted again`,
        );
      }
      await s.interruption.pause(1000);
    }
  }

  return {
    kind: 'ha',
    outlivesThisPod: true,
    prepare: () => undefined,
    // The Job's backoffLimit is coordinator-restarts + 1: the runtime after the last restart cleans up.
    restartsExhausted: (k) =>
      k.failedBefore > ha.coordinatorRestarts
        ? `${k.failedBefore} coordinator Pods of this application failed (application.ha.coordinator-restarts allows ${ha.coordinatorRestarts} restarts); the masters and workers are removed. A streaming job can be restored from its checkpoints with a new application (--restore-job-id ${expected})`
        : undefined,
    async takeCharge() {
      const me = settings.pod.name;
      const deadline = clock.now() + s.tuning.apiFailureBudgetMs;
      for (let attempt = 0; ; attempt++) {
        s.interruption.throwIfSet();
        try {
          await s.interruption.guard(kube.patchJobAnnotations(app.appId, { [ANNOTATIONS.coordinator]: me }));
          s.reporter.event('Normal', 'CoordinatorInCharge', `coordinator ${me} is in charge of the application`);
          return;
        } catch (e) {
          if (e instanceof RuntimeFailure) throw e;
          if (!isTransient(e) || clock.now() >= deadline)
            throw new RuntimeFailure(
              'ApiUnavailable',
              `recording the coordinator on Job ${app.appId}: ${errorMessage(e)}`,
            );
          await s.interruption.pause(backoffMs(attempt, 200, 3000));
        }
      }
    },
    async stillInCharge() {
      const me = settings.pod.name;
      let job;
      try {
        job = await readJob(s, clock.now() + s.tuning.apiFailureBudgetMs);
      } catch {
        // Gone (the application is being deleted) or the API never answered: nothing to be fenced from.
        return true;
      }
      if (job.metadata?.deletionTimestamp) return true;
      const inCharge = job.metadata?.annotations?.[ANNOTATIONS.coordinator];
      if (inCharge && inCharge !== me) {
        log.warn('another coordinator is in charge; this one leaves everything as it is', { inCharge });
        return false;
      }
      return true;
    },
    workers: (k) => ({
      ownerUid: k.jobUid,
      adoptOwned: true,
      // The template already lists the masters by their stable names; the Job owns the workers.
      stamp: {
        appId: app.appId,
        namespace: kube.namespace,
        template: k.template,
        owner: jobOwnerReference(app.appId, k.jobUid),
      },
    }),
    // The masters first. A worker resolves the masters' DNS names once, when it starts: started
    // before the masters' Pods had addresses (their names do not resolve yet), it never joined —
    // seen on three real nodes. The masters run already (the StatefulSet comes before the Job).
    async start(k, createWorkers) {
      const failovers = Math.max(0, Number.parseInt(k.annotations[ANNOTATIONS.masterFailovers] ?? '0', 10) || 0);
      watch = new MastersWatch(s, ha, failovers);
      const engineReady = waitForEngine(s);
      engineReady.catch(() => undefined);
      await awaitMasters(s, watch, k.startedAt);
      await s.interruption.guard(engineReady);
      watch.start();
      return createWorkers();
    },
    async reattach(k) {
      return submissionRecorded(k.annotations) ? knownJob() : undefined;
    },
    async claimSubmission(k): Promise<SubmissionClaim> {
      const mine = `${settings.pod.name}@${clock.wallTime().toISOString()}`;
      const deadline = clock.now() + s.tuning.apiFailureBudgetMs;
      let resourceVersion = k.jobResourceVersion;
      for (let attempt = 0; ; attempt++) {
        s.interruption.throwIfSet();
        try {
          await s.interruption.guard(
            kube.patchJobAnnotations(app.appId, { [ANNOTATIONS.submissionIntent]: mine }, { resourceVersion }),
          );
          log.info('submission claimed on the Job', { intent: mine });
          return { claimed: true };
        } catch (e) {
          if (e instanceof RuntimeFailure) throw e;
          if (!isStatus(e, 409) && !isTransient(e))
            throw new RuntimeFailure('ApiError', `claiming the submission on Job ${app.appId}: ${errorMessage(e)}`);
          log.warn('claiming the submission was not confirmed; reading the Job', { error: errorMessage(e) });
        }
        // Changed meanwhile (the reporter's own patches), or the answer was lost: the Job says who holds the claim.
        const job = await readJob(s, deadline);
        const intent = job.metadata?.annotations?.[ANNOTATIONS.submissionIntent];
        if (intent === mine) return { claimed: true };
        if (intent || job.metadata?.annotations?.[ANNOTATIONS.submittedAt]) {
          log.warn('another coordinator claimed the submission; following it', { intent });
          return { claimed: false, follow: await knownJob() };
        }
        resourceVersion = job.metadata?.resourceVersion ?? '';
        if (clock.now() >= deadline)
          throw new RuntimeFailure(
            'ApiUnavailable',
            `the submission could not be recorded on Job ${app.appId} within ${Math.round(s.tuning.apiFailureBudgetMs / 1000)} s; the job was not sent`,
          );
        await s.interruption.pause(backoffMs(attempt, 200, 3000));
      }
    },
    submitted: () => s.reporter.annotate({ submittedAt: clock.wallTime().toISOString() }),
    // An earlier coordinator may have created workers this one never attempted: every name.
    inheritedWorkers: () => Array.from({ length: app.workerCount }, (_, i) => names.worker(app.appId, i + 1)),
    async restartActiveMaster(why) {
      const view = watch?.view;
      // Never the last ready master: a restart must leave one to take the job over.
      if (!view?.active || view.ready < 2) return false;
      const result = await kube.deletePod(view.active).catch((e: unknown) => {
        log.warn('restarting the active master failed', { pod: view.active, error: errorMessage(e) });
        return undefined;
      });
      if (result !== 'deleted') return false;
      s.reporter.event(
        'Warning',
        'ActiveMasterRestarted',
        `restarted the active master ${view.active}: ${why}; another master takes the job over from the cluster's maps`,
      );
      return true;
    },
    confirmEnd: (jobId) => s.deps.engine.majorityJobInfo(ha.masterAddresses, jobId),
    readJobElsewhere: (jobId) => s.deps.engine.majorityJobInfo(ha.masterAddresses, jobId),
    release: async () => {
      await watch?.stop();
    },
    async removeMasters() {
      await watch?.stop();
      return removeMasters(s, ha);
    },
  };
}
