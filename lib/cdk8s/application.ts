// The cdk8s door. Every object comes from the plan, verbatim, as an ApiObject: cdk8s-plus-28's
// L2 defaults (non-root user 25000, read-only root filesystem, default resources, no token on
// any Pod, `Always` pull policy) do not fit a stock SeaTunnel JVM image, and the L1 classes
// would re-encode the plan's JSON (quantities, int-or-string) only to print the same YAML. One
// source of truth keeps this output, the CLI's objects and the Pulumi inputs identical (a parity
// test checks it). cdk8s-plus is still the right tool around the application: the
// `masterPods()` / `workerPods()` selectors plug into its NetworkPolicy and Service APIs.

import { ApiObject, Chart, type ChartProps } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { isResolved, objectId, resolveDoorProps, type ResolvedInput } from '../doors/shared';
import type { SeaTunnelApplicationProps } from '../model/props';
import { LABELS } from '../model/reserved';
import type { ApplicationSpec } from '../model/spec';
import type { TeamTemplate } from '../model/template';
import { buildPlan, dependents } from '../plan/build-plan';
import type { ApplicationPlan } from '../plan/types';

export interface SeaTunnelApplicationConstructProps extends SeaTunnelApplicationProps {
  /**
   * Synthesize the Job suspended. Plain `kubectl apply` needs it running (dependents come
   * first in the file instead); a deployment tool that unsuspends it after the dependents exist
   * may ask for it suspended.
   * @default false
   */
  readonly suspend?: boolean;
  /**
   * Directory that relative `runtimeFiles.*.file` paths are resolved against.
   * @default - the working directory
   */
  readonly baseDir?: string;
}

/** An application already resolved elsewhere (the CLI, a test): used as is. */
export interface ResolvedApplicationProps extends ResolvedInput {
  /** @default false */
  readonly suspend?: boolean;
}

export class SeaTunnelApplication extends Construct {
  /** The resolved, validated application. */
  readonly spec: ApplicationSpec;
  /** Everything the application consists of, as plain JSON. */
  readonly plan: ApplicationPlan;
  /** The application ID (= Job name). */
  readonly applicationId: string;
  /** The Zeta job ID (exact decimal string). */
  readonly jobId: string;
  /** The master Job. */
  readonly job: ApiObject;
  /** Every ApiObject, dependents first. */
  readonly apiObjects: readonly ApiObject[];

  constructor(scope: Construct, id: string, props: SeaTunnelApplicationConstructProps | ResolvedApplicationProps) {
    super(scope, id);
    if (isResolved(props)) {
      this.spec = props.spec;
    } else {
      const { suspend: _suspend, baseDir, ...appProps } = props;
      this.spec = resolveDoorProps(appProps, baseDir);
    }
    this.plan = buildPlan(this.spec, { suspend: props.suspend ?? false });
    this.applicationId = this.spec.appId;
    this.jobId = this.spec.jobId;
    const deps = dependents(this.plan).map((o) => new ApiObject(this, objectId(o), o));
    this.job = new ApiObject(this, objectId(this.plan.job), this.plan.job);
    // Emit order only (kubectl does not wait), but it puts every dependent before the Job.
    this.job.addDependency(...deps);
    this.apiObjects = [...deps, this.job];
  }

  /** The master Pod, as a cdk8s-plus selector (e.g. for `kplus.NetworkPolicy` peers). */
  masterPods(): kplus.Pods {
    const plus = cdk8sPlus();
    return plus.Pods.select(this, 'MasterPods', {
      labels: { [LABELS.applicationId]: this.applicationId, [LABELS.role]: 'master' },
      namespaces: plus.Namespaces.select(this, 'MasterNamespace', { names: [this.spec.namespace] }),
    });
  }

  /** The worker Pods (created at run time by the master), as a cdk8s-plus selector. */
  workerPods(): kplus.Pods {
    const plus = cdk8sPlus();
    return plus.Pods.select(this, 'WorkerPods', {
      labels: { [LABELS.applicationId]: this.applicationId, [LABELS.role]: 'worker' },
      namespaces: plus.Namespaces.select(this, 'WorkerNamespace', { names: [this.spec.namespace] }),
    });
  }
}

export interface SeaTunnelApplicationChartProps extends ChartProps {
  readonly application: SeaTunnelApplicationConstructProps | ResolvedApplicationProps;
}

/** One application per Chart, so `cdk8s synth` writes one YAML file per application. */
export class SeaTunnelApplicationChart extends Chart {
  readonly application: SeaTunnelApplication;

  constructor(scope: Construct, id: string, props: SeaTunnelApplicationChartProps) {
    const { application, ...chartProps } = props;
    super(scope, id, { disableResourceNameHashes: true, ...chartProps });
    this.application = new SeaTunnelApplication(this, 'Application', application);
  }
}

/** Several applications derived from one team template, each in its own Chart. */
export function addTeamApplications(
  scope: Construct,
  template: TeamTemplate,
  applications: Readonly<Record<string, Partial<SeaTunnelApplicationConstructProps>>>,
  extra: Pick<SeaTunnelApplicationConstructProps, 'suspend' | 'baseDir'> = {},
): SeaTunnelApplicationChart[] {
  return Object.entries(applications).map(([id, props]) => {
    const { suspend, baseDir, ...rest } = { ...extra, ...props };
    return new SeaTunnelApplicationChart(scope, id, {
      application: {
        ...template.application(rest),
        ...(suspend !== undefined ? { suspend } : {}),
        ...(baseDir ? { baseDir } : {}),
      },
    });
  });
}

/**
 * cdk8s-plus-28 on first use: only the selectors above need it, and loading it (its generated
 * Kubernetes API classes) is about a third of a `seatunnel-app synth` process.
 */
function cdk8sPlus(): typeof kplus {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, typed by the cast
  return require('cdk8s-plus-28') as typeof kplus;
}
