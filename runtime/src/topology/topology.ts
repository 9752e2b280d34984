// The master topology: where the Zeta masters run and what that means for the rest of the
// lifecycle. Two strategies with one interface, chosen once from runtime.json (`topologyOf`):
//   * one local master (./local-master.ts): Zeta's master runs in this Pod beside the runtime; the
//     application is this Pod — its end is the application's end;
//   * a set of HA masters (./ha-masters.ts, docs/ha.md): a StatefulSet runs the masters, this Pod
//     is a coordinator that may be replaced; the Job owns everything and a new coordinator re-attaches.
// lifecycle.ts tells the story once and asks the topology at each step where the two differ.

import type { WorkerStampInput } from 'seatunnel-app/runtime-support';
import type { JobInfo } from '../engine/port';
import type { Step } from '../steps/context';
import type { KubeContext } from '../steps/kube-context';
import type { WorkerReconciler } from '../workers/reconciler';
import { haMasters } from './ha-masters';
import { localMaster } from './local-master';

/** How the workers are owned and stamped, and whether Pods of an earlier runtime are adopted. */
export interface WorkerOwnership {
  readonly ownerUid: string;
  readonly stamp: WorkerStampInput;
  /** A worker an earlier coordinator of the same Job created is taken over (re-attach). */
  readonly adoptOwned: boolean;
}

/** What the submission step must do: submit (this coordinator holds the claim), or follow a job already sent. */
export type SubmissionClaim = { readonly claimed: true } | { readonly claimed: false; readonly follow: string };

export interface MasterTopology {
  readonly kind: 'local' | 'ha';
  /**
   * The application outlives this Pod: a stopped Pod detaches instead of ending it (SIGTERM,
   * this Pod deleted), and the Job starts another runtime.
   */
  readonly outlivesThisPod: boolean;
  /** Before anything starts (the local master's completed engine files). */
  prepare(): void;
  /**
   * When this runtime comes after the last restart the application allows, why: it then only
   * removes what earlier runtimes started (the masters, the workers) and ends the application.
   */
  restartsExhausted(k: KubeContext): string | undefined;
  /** Records that this runtime is in charge of the application (before it changes anything). */
  takeCharge(k: KubeContext): Promise<void>;
  /**
   * Whether this runtime is still in charge when the application ends: one that was replaced while
   * cut off (another coordinator took over) must not stop the job or remove anything.
   */
  stillInCharge(): Promise<boolean>;
  /** Who owns the workers and what is stamped into each. */
  workers(k: KubeContext): WorkerOwnership;
  /**
   * Starts the masters and the workers (`createWorkers`), each topology in the order it needs, and
   * waits until the masters answer; returns the workers' reconciler.
   */
  start(k: KubeContext, createWorkers: () => Promise<WorkerReconciler>): Promise<WorkerReconciler>;
  /** The job an earlier runtime of this Job already sent to Zeta, to follow instead of submitting. */
  reattach(k: KubeContext): Promise<string | undefined>;
  /** Right before the job is sent: makes sure no other runtime of this Job has sent it or will. */
  claimSubmission(k: KubeContext): Promise<SubmissionClaim>;
  /** After Zeta acknowledged the submission. */
  submitted(jobId: string): void;
  /** Worker names that may exist although this process never created them (an earlier coordinator's). */
  inheritedWorkers(): string[];
  /**
   * The active master answers but does not serve the job (policy.ts jobUnservedByMaster): restarts
   * that master so another one takes the job over. Whether it did (HA, with another master ready).
   */
  restartActiveMaster(why: string): Promise<boolean>;
  /**
   * The job's end as the application may act on it, given the end one master reported (`seen`):
   * with one master, that; with HA, the job as the cluster holding a majority of the masters sees
   * it — a master cut off or frozen and back answers for a cluster of its own (engine/majority.ts).
   * Undefined when no majority answers.
   */
  confirmEnd(jobId: string, seen: JobInfo): Promise<JobInfo | undefined>;
  /**
   * The job as another way in answers it when the usual read (Zeta's REST through the masters'
   * Service) failed: with HA, a master of the majority's cluster on its member port — the Service
   * may route the read, connection after connection, to a master whose view is stale ("Not
   * Member!") while the others run the job. Undefined with one master, or when none answers.
   */
  readJobElsewhere(jobId: string): Promise<JobInfo | undefined>;
  /** Stops watching without changing anything (a detached coordinator). */
  release(): Promise<void>;
  /** At the end: removes the masters; returns the problems. */
  removeMasters(): Promise<string[]>;
}

export function topologyOf(s: Step): MasterTopology {
  const ha = s.deps.settings.app.ha;
  return ha ? haMasters(s, ha) : localMaster(s);
}
