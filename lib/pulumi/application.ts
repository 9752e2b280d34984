// The Pulumi door. Every object comes from the same plan as the cdk8s construct and the CLI; this
// adapter adds only what Pulumi needs to reproduce SeaTunnel's creation order:
//
//   1. the Job, suspended, with `pulumi.com/skipAwait` (a suspended Job never starts, and a
//      SeaTunnel job may run for days: the provider's Job await would hang, then fail) and a
//      background deletion (see JOB_ANNOTATIONS);
//   2. every dependent, owner-referenced to the Job through its uid Output (garbage-collected with
//      it, `controller: false`, `blockOwnerDeletion: false`, exactly as the CLI sets them);
//   3. a `JobPatch` setting `spec.suspend: false` once all of them exist.
//
// Resource options come from ./options (pure, unit-tested); secret data is a Pulumi secret, so it
// is encrypted in the stack's state. Names are the plan's: no autonaming, one Job per application ID.

import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { isResolved, objectId, resolveDoorProps, type ResolvedInput } from '../doors/shared';
import type { SeaTunnelApplicationProps } from '../model/props';
import type { ApplicationSpec } from '../model/spec';
import { buildPlan, dependents, withJobOwner } from '../plan/build-plan';
import type { ApplicationPlan, KubeObject } from '../plan/types';
import { dependentOptions, jobOptions, startOptions, type ChildOptionsContext } from './options';

/** The component's type token (part of every URN below it: renaming it replaces everything). */
export const APPLICATION_TYPE = 'seatunnel:kubernetes:Application';

/** Annotations this adapter adds (and only this adapter: the parity test strips `pulumi.com/*`). */
export const PULUMI_ANNOTATIONS = {
  skipAwait: 'pulumi.com/skipAwait',
  patchForce: 'pulumi.com/patchForce',
  deletionPropagation: 'pulumi.com/deletionPropagationPolicy',
} as const;

/**
 * Annotations of the Job. `skipAwait`: a suspended Job never starts, and a SeaTunnel job may run
 * for days (without it, `up` waits for completion and `refresh` reports a running Job as failed).
 * With `skipAwait` the provider also stops waiting for a Job's deletion; a Foreground delete
 * would then leave the old Job terminating under the same name while its replacement is created
 * (server-side apply conflicts). `background` removes the Job object at once; the garbage
 * collector then deletes its Pod (which removes its workers) as it does for `kubectl delete`.
 */
export const JOB_ANNOTATIONS: Readonly<Record<string, string>> = {
  [PULUMI_ANNOTATIONS.skipAwait]: 'true',
  [PULUMI_ANNOTATIONS.deletionPropagation]: 'background',
};

/** Options of the Pulumi door that the other doors do not have. */
export interface SeaTunnelApplicationPulumiOptions {
  /**
   * Kubernetes provider of every child (e.g. one with its own kubeconfig).
   * @default - the provider given to the component (`provider`/`providers`), else the default provider
   */
  readonly provider?: pulumi.ProviderResource;
  /**
   * Timeouts of the Job and the JobPatch. Creating neither waits; deleting the Job waits until its
   * master Pod is gone (grace period 120 s).
   * @default - the provider's (10 minutes)
   */
  readonly customTimeouts?: pulumi.CustomTimeouts;
  /**
   * Directory that relative `runtimeFiles.*.file` paths are resolved against.
   * @default - the working directory (the Pulumi project directory under `pulumi up`)
   */
  readonly baseDir?: string;
}

/** Typed props, resolved with derived (stable) IDs. */
export interface SeaTunnelApplicationArgs extends SeaTunnelApplicationProps, SeaTunnelApplicationPulumiOptions {}

/** An application already resolved elsewhere (a deployment file, a test): used as is. */
export interface ResolvedSeaTunnelApplicationArgs extends SeaTunnelApplicationPulumiOptions, ResolvedInput {}

/**
 * Resolves and plans an application the way the component does (throws ConfigurationError with
 * every problem). The Job is planned suspended: the component starts it with its JobPatch.
 */
export function planApplication(args: SeaTunnelApplicationArgs | ResolvedSeaTunnelApplicationArgs): ApplicationPlan {
  let spec: ApplicationSpec;
  if (isResolved(args)) {
    spec = args.spec;
  } else {
    const { provider: _p, customTimeouts: _t, baseDir, ...props } = args;
    spec = resolveDoorProps(props, baseDir);
  }
  return buildPlan(spec, { suspend: true });
}

/** Pulumi resource name of a plan object (the cdk8s construct uses the same ids). */
export const childName: (o: { kind: string; metadata: { name: string } }) => string = objectId;

/**
 * Resource args of a plan object: the object without apiVersion/kind (the typed resource classes
 * set those themselves), with the adapter's metadata. The one place where the plan's JSON types
 * (kubernetes-types) meet the provider's input types, which differ only in optionality details;
 * the plan's objects are schema-validated by their own tests.
 */
function argsOf<A>(o: KubeObject, metadata: unknown, extra: Record<string, unknown> = {}): A {
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = o as KubeObject & Record<string, unknown>;
  return { ...rest, ...extra, metadata } as unknown as A;
}

const withAnnotations = (meta: KubeObject['metadata'], extra: Record<string, string>) => ({
  ...meta,
  annotations: { ...(meta.annotations ?? {}), ...extra },
});

export class SeaTunnelApplication extends pulumi.ComponentResource {
  /** The resolved, validated application. */
  readonly spec: ApplicationSpec;
  /** Everything the application consists of, as plain JSON (the Job planned suspended). */
  readonly plan: ApplicationPlan;
  /** The application ID (= Job name). */
  readonly applicationId: pulumi.Output<string>;
  /** The Zeta job ID (exact decimal string). */
  readonly jobId: pulumi.Output<string>;
  readonly namespace: pulumi.Output<string>;
  /** Name of the Job, as the cluster reports it. */
  readonly jobName: pulumi.Output<string>;
  /** The master Job. */
  readonly job: k8s.batch.v1.Job;
  /** The dependents, in creation order (RBAC, policies, configuration, Service, worker template). */
  readonly dependents: readonly pulumi.CustomResource[];
  /** The patch that unsuspends the Job once every dependent exists. */
  readonly start: k8s.batch.v1.JobPatch;

  constructor(
    name: string,
    args: SeaTunnelApplicationArgs | ResolvedSeaTunnelApplicationArgs,
    opts: pulumi.ComponentResourceOptions = {},
  ) {
    // Resolve and plan before anything is registered: invalid input registers nothing, not even
    // the component.
    const plan = planApplication(args);
    // No inputs on the component: its args may hold secret data, and the children carry it already.
    super(APPLICATION_TYPE, name, {}, opts);
    this.plan = plan;
    this.spec = plan.spec;

    const ctx: ChildOptionsContext = { parent: this, provider: args.provider, customTimeouts: args.customTimeouts };
    const jobName = plan.job.metadata.name;

    this.job = new k8s.batch.v1.Job(
      childName(plan.job),
      argsOf<k8s.batch.v1.JobArgs>(plan.job, withAnnotations(plan.job.metadata, JOB_ANNOTATIONS)),
      jobOptions(ctx),
    );

    // One Output for every dependent: the owner reference the CLI also sets (plan/withJobOwner).
    const uid = this.job.metadata.uid;
    this.dependents = dependents(plan).map((o) =>
      dependentResource(
        o,
        uid.apply((u) => withJobOwner(o, jobName, u).metadata.ownerReferences ?? []),
        dependentOptions(ctx, this.job),
      ),
    );

    this.start = new k8s.batch.v1.JobPatch(
      `JobPatch-${jobName}`,
      {
        metadata: {
          name: jobName,
          namespace: plan.job.metadata.namespace,
          annotations: { [PULUMI_ANNOTATIONS.patchForce]: 'true', [PULUMI_ANNOTATIONS.skipAwait]: 'true' },
        },
        spec: { suspend: false },
      },
      startOptions(ctx, this.job, this.dependents),
    );

    this.applicationId = pulumi.output(plan.spec.appId);
    this.jobId = pulumi.output(plan.spec.jobId);
    this.namespace = this.job.metadata.namespace;
    this.jobName = this.job.metadata.name;
    this.registerOutputs({
      applicationId: this.applicationId,
      jobId: this.jobId,
      namespace: this.namespace,
      jobName: this.jobName,
    });
  }
}

type OwnerReferences = pulumi.Output<NonNullable<KubeObject['metadata']['ownerReferences']>>;

/** The typed resource of one dependent, owner-referenced to the Job. */
function dependentResource(
  o: KubeObject,
  ownerReferences: OwnerReferences,
  opts: pulumi.CustomResourceOptions,
): pulumi.CustomResource {
  const name = childName(o);
  const metadata = { ...o.metadata, ownerReferences };
  switch (o.kind) {
    case 'ServiceAccount':
      return new k8s.core.v1.ServiceAccount(name, argsOf<k8s.core.v1.ServiceAccountArgs>(o, metadata), opts);
    case 'Role':
      return new k8s.rbac.v1.Role(name, argsOf<k8s.rbac.v1.RoleArgs>(o, metadata), opts);
    case 'RoleBinding':
      return new k8s.rbac.v1.RoleBinding(name, argsOf<k8s.rbac.v1.RoleBindingArgs>(o, metadata), opts);
    case 'NetworkPolicy':
      return new k8s.networking.v1.NetworkPolicy(name, argsOf<k8s.networking.v1.NetworkPolicyArgs>(o, metadata), opts);
    case 'ConfigMap':
      return new k8s.core.v1.ConfigMap(name, argsOf<k8s.core.v1.ConfigMapArgs>(o, metadata), opts);
    case 'Secret': {
      // Secret data is a Pulumi secret: encrypted in the state, masked in diffs and logs.
      const { data, stringData } = o as KubeObject & {
        data?: Record<string, string>;
        stringData?: Record<string, string>;
      };
      return new k8s.core.v1.Secret(
        name,
        argsOf<k8s.core.v1.SecretArgs>(o, metadata, {
          ...(data !== undefined ? { data: pulumi.secret(data) } : {}),
          ...(stringData !== undefined ? { stringData: pulumi.secret(stringData) } : {}),
        }),
        opts,
      );
    }
    case 'Service':
      return new k8s.core.v1.Service(name, argsOf<k8s.core.v1.ServiceArgs>(o, metadata), opts);
    case 'PodTemplate':
      return new k8s.core.v1.PodTemplate(name, argsOf<k8s.core.v1.PodTemplateArgs>(o, metadata), opts);
    case 'StatefulSet':
      // With HA (docs/ha.md). Not awaited: the masters become ready while the coordinator starts,
      // and the coordinator, not Pulumi, waits for them (as for the Job).
      return new k8s.apps.v1.StatefulSet(
        name,
        argsOf<k8s.apps.v1.StatefulSetArgs>(o, {
          ...metadata,
          annotations: { ...(o.metadata.annotations ?? {}), [PULUMI_ANNOTATIONS.skipAwait]: 'true' },
        }),
        opts,
      );
    case 'PodMonitor':
      // kubernetes.metrics.pod-monitor: a custom resource of the Prometheus operator's CRD, which
      // the provider creates generically (no typed class; the cluster must serve the CRD).
      return new k8s.apiextensions.CustomResource(
        name,
        argsOf<k8s.apiextensions.CustomResourceArgs>(o, metadata, { apiVersion: o.apiVersion, kind: o.kind }),
        opts,
      );
    default:
      // A new kind in the plan must be mapped here before it can be deployed.
      throw new Error(
        `SeaTunnelApplication (Pulumi): no resource class for ${o.apiVersion} ${o.kind} "${o.metadata.name}"`,
      );
  }
}
