// `seatunnel-app`: the framework-free core for users of the library — typed props, validation,
// deployment files, team templates, the plan (every Kubernetes object as plain JSON), the RBAC
// rules a platform team grants, the admission fence it installs, and the words the runtime writes
// on a Job. The doors are their own entry points so that each loads only its framework:
//   seatunnel-app/cdk8s    the construct (needs cdk8s, cdk8s-plus-28, constructs)
//   seatunnel-app/pulumi   the component and the Automation API helper (needs @pulumi/pulumi, @pulumi/kubernetes)
//
// This list is the public API; everything else is internal. A module of lib/ exports what other
// modules and entries use (the plan's Pod editors, the steps, the option registry, the CLI's
// Kubernetes side), but the package's `exports` map reaches no file of lib/ by path, so only what
// an entry names is offered. What an entry must offer although it is not for users — the runtime's
// seatunnel-app/runtime-support — carries the JSDoc tag "internal", as cdk8s-plus marks its
// internals, and is stripped from the published declarations (stripInternal: the tag in any
// comment before a statement strips that statement, so this file never spells it).
// test/unit/package/install.test.ts checks from an installed copy that the plan's internals stay
// out of this list and that the runtime's entry offers no types.
// docs/architecture.md, "The public API".

// Typed props, their parts, and the values some of them take.
export type {
  ClassDataSharing,
  ConfigMapEntryProps,
  EnvFromProps,
  EnvValueProps,
  ImagePullPolicy,
  LabelSelectorProps,
  LabelSelectorRequirementProps,
  PodRole,
  PodSecurityLevel,
  RuntimeFileProps,
  RuntimeFilesProps,
  RuntimeMode,
  SeaTunnelApplicationProps,
  SecretEntryProps,
  SpreadMode,
  TolerationProps,
  TopologySpreadConstraintProps,
} from './model/props';
export { TOPOLOGY } from './model/allowed-values';
export { DEFAULT_RUNTIME_IMAGE } from './model/version';

// Validation: props → ApplicationSpec, every problem at once.
export { resolveApplication, type ResolveContext } from './model/resolve';
export { ConfigurationError, formatIssue, type ValidationIssue, type ValueSource } from './model/issues';
export type {
  ApplicationSpec,
  EnvFromSpec,
  EnvVarSpec,
  FileMount,
  HaSpec,
  JobConfigSpec,
  MasterSpec,
  MountedObject,
  RoleSpec,
  RuntimeFileSpec,
  RuntimeFilesSpec,
  Toleration,
  TopologySpreadConstraint,
  WorkerSpec,
} from './model/spec';

// Deployment files (`-a deploy.conf`, `-D` overrides), with includes and runtime files read from disk.
export { loadApplication, type LoadOptions } from './model/load';
export type { DeploymentInput } from './model/deployment';
export { fileIncludeReader, filesRelativeTo } from './hocon/file-include';

// Team templates.
export { TeamTemplate, type TeamTemplateOptions, type TemplateDefaults } from './model/template';

// The plan and its objects.
export { allObjects, buildPlan } from './plan/build-plan';
export type {
  ApplicationPlan,
  ConfigMap,
  Job,
  KubeObject,
  NetworkPolicy,
  ObjectMeta,
  PlanOptions,
  PodTemplate,
  Role,
  RoleBinding,
  Secret,
  Service,
  ServiceAccount,
  StatefulSet,
} from './plan/types';

// What a platform team grants and installs.
export { submitterRules, type SubmitterRulesOptions } from './plan/submitter-rbac';
export { applicationNamespace, type ApplicationNamespaceOptions } from './plan/namespace';
export { runtimeRules } from './plan/steps/rbac';
export { admissionFence, type AdmissionFenceOptions, type FenceObject } from './plan/admission-fence';

// The words the runtime writes on a Job (annotations, phases, Event reasons, labels, exit codes), for tools that read them.
export { ANNOTATIONS, EVENT_REASONS, FINAL_PHASES, PHASES, type EventReason, type Phase } from './contract/vocabulary';
export { EXIT_CODES, LABELS } from './model/reserved';
