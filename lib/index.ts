// `seatunnel-app`: the framework-free core — typed props, validation, team templates, the
// deployment-file loader and the plan (every Kubernetes object as plain JSON). The doors are
// their own entry points so that each loads only its framework:
//   seatunnel-app/cdk8s    the construct (needs cdk8s, cdk8s-plus-28, constructs)
//   seatunnel-app/pulumi   the component and the Automation API helper (needs @pulumi/pulumi, @pulumi/kubernetes)
export * from './model';
export * from './plan';
// The words the runtime writes on a Job (annotations, phases, Event reasons), for tools that read them.
export { ANNOTATIONS, EVENT_REASONS, FINAL_PHASES, PHASES, type EventReason, type Phase } from './contract';
