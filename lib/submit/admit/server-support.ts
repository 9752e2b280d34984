// Which Kubernetes versions the CLI works with, and what an older server changes about an
// application — decided from the server's version alone, read once per command (lib/cli/connect.ts).
// An API server drops the fields of a feature it lacks or has disabled, without an error; so every
// field whose loss would change behaviour is either refused here, or reported (submit warns,
// preflight notes it), never left to be dropped unnoticed.
//
// What the plan relies on, and from which minor (on by default):
//   Job spec.suspend (GA 1.24) — submit creates the Job suspended          → the minimum, 1.24
//   Job spec.ttlSecondsAfterFinished (GA 1.23), Pod Security admission (beta, on, 1.23),
//   policy/v1, networking.k8s.io/v1, batch/v1, apps/v1, rbac/v1 (all GA ≤ 1.21)  → below the minimum
//   Job spec.podFailurePolicy (beta, on, 1.26) and the Pod condition DisruptionTarget (1.26)
//       without HA: equivalent (backoffLimit 0), but the Job no longer records the exit code  → warning
//       with HA: a coordinator's terminal exit would be retried instead of ending the Job  → refused
//   a probe's own terminationGracePeriodSeconds (beta, on, 1.25), on the HA masters' liveness probe
//       only: covered by HA's 1.26
//   fieldValidation=Strict on preflight's dry run (beta, on, 1.25)          → preflight note
//   ValidatingAdmissionPolicy v1 for the platform's admission fence (GA 1.30) → preflight note
// The plan uses no other field newer than 1.24 (podReplacementPolicy, backoffLimitPerIndex,
// successPolicy, managedBy, sidecar init containers, schedulingGates are all left unset).

import { atLeast, type ServerVersion } from '../../kube/server-version';
import type { ApplicationSpec } from '../../model/spec';

export const KUBERNETES_SUPPORT: {
  readonly minimum: { readonly major: number; readonly minor: number };
  readonly tested: readonly string[];
} = {
  /** The oldest minor the commands accept. */
  minimum: { major: 1, minor: 24 },
  /**
   * The minors the cluster tiers run against: the oldest (tools/testbin/versions.env
   * K8S_OLDEST_VERSION, tier cluster-oldest) and the newest (K8S_VERSION, every other tier).
   * A unit test keeps this list and versions.env in step.
   */
  tested: ['1.24', '1.36'],
};

/** The parts of an application whose behaviour depends on the server version. */
export interface ServerDependentUse {
  readonly highAvailability: boolean;
  readonly admissionFence: boolean;
}

export const serverDependentUse = (spec: ApplicationSpec): ServerDependentUse => ({
  highAvailability: spec.ha !== undefined,
  admissionFence: spec.admissionFence,
});

export interface ServerSupport {
  /** The server's version as it reports it (gitVersion). */
  readonly server: string;
  /** Set when the command must not go on: why, naming the server's version and the supported range. */
  readonly refusal?: string;
  /** What this server changes about the application, for submit to print. */
  readonly warnings: readonly string[];
  /** For preflight: the version and what it means, then each capability this server lacks. */
  readonly notes: readonly string[];
}

const minor = (major: number, m: number) => `${major}.${m}`;
const RANGE = `Kubernetes ${minor(KUBERNETES_SUPPORT.minimum.major, KUBERNETES_SUPPORT.minimum.minor)} and newer (tested on ${KUBERNETES_SUPPORT.tested.join(' and ')})`;

/** Pure: what a server of version `v` means for the command; `use` is absent for status and cancel (no plan). */
export function serverSupport(v: ServerVersion, use?: ServerDependentUse): ServerSupport {
  const server = `Kubernetes server ${v.gitVersion}`;
  const { major: minMajor, minor: minMinor } = KUBERNETES_SUPPORT.minimum;
  if (!atLeast(v, minMajor, minMinor)) {
    return {
      server: v.gitVersion,
      refusal: `${server} is not supported: seatunnel-app supports ${RANGE}. Its Job API lacks what submit relies on (spec.suspend, GA in 1.24), and status and cancel read what submit writes`,
      warnings: [],
      notes: [],
    };
  }
  const newest = KUBERNETES_SUPPORT.tested[KUBERNETES_SUPPORT.tested.length - 1];
  const [newestMajor, newestMinor] = newest.split('.').map(Number);
  const tested = KUBERNETES_SUPPORT.tested.includes(minor(v.major, v.minor));
  const notes = [
    `${server}: supported (${RANGE})${
      tested
        ? ''
        : atLeast(v, newestMajor, newestMinor + 1)
          ? `; newer than the newest tested minor ${newest}, and every API the application uses is GA there`
          : '; this minor lies between the tested ones'
    }`,
  ];
  const warnings: string[] = [];
  let refusal: string | undefined;

  if (!atLeast(v, 1, 26)) {
    if (use?.highAvailability) {
      refusal = `application.ha.enabled: ${server} lacks the Job's podFailurePolicy (on by default from 1.26) and drops it silently; a coordinator that ends the application (job failed or cancelled) would then be restarted instead (application.ha.coordinator-restarts). High availability needs Kubernetes 1.26 or newer`;
    } else if (use) {
      const w = `${server} lacks the Job's podFailurePolicy (on by default from 1.26) and drops it: the application ends the same way (backoffLimit 0 ends the Job at the first failed Pod), but once the master Pod is gone the Job no longer records the runtime's exit code, so status tells CANCELED from FAILED by the runtime's phase annotation alone`;
      warnings.push(w);
      notes.push(w);
    }
  }
  if (use && !atLeast(v, 1, 25)) {
    notes.push(
      `${server} has no server-side field validation (fieldValidation=Strict, on by default from 1.25): the dry run cannot reject a field this server does not know, which it drops instead`,
    );
  }
  if (use?.admissionFence && !atLeast(v, 1, 30)) {
    notes.push(
      `kubernetes.admission-fence: ${server} has no ValidatingAdmissionPolicy v1 (GA in 1.30), so no admission fence can be installed; the worker template's annotation has no effect`,
    );
  }
  return { server: v.gitVersion, ...(refusal ? { refusal } : {}), warnings, notes };
}
