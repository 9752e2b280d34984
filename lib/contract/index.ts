// The contract between the plan (which writes runtime.json and the Job's first annotations), the
// runtime in the master Pod (which reads runtime.json and tells its story on the Job) and the
// CLI's observation commands (which read that story back). docs/architecture.md, "The runtime contract".
export * from './vocabulary';
export * from './runtime-settings';
export * from './ha-timings';
export * from './worker-log';
export * from './job-rows';
