export * from './types';
export * from './build-plan';
export * from './pod';
export * from './runtime-settings';
export { runtimeRules } from './steps/rbac';
export { submitterRules } from './submitter-rbac';
export * from './stamp';
export * from './admission-fence';
