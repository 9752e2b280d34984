// Test tiers are Jest projects; tools/test.sh runs them in order and reports which ran.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }];
// The runtime imports the core by package name (seatunnel-app/runtime-support, package.json "exports");
// tests run it from source, as tsconfig.json's and runtime/tsconfig.json's "paths" do. The runtime's
// own tests may also reach any file of lib/ (seatunnel-app/internal/*, a test-only alias: the package
// exports no such path).
const moduleNameMapper = {
  '^seatunnel-app/runtime-support$': '<rootDir>/lib/runtime-support',
  '^seatunnel-app/internal/(.*)$': '<rootDir>/lib/$1',
};
const base = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
};
// One real control plane per test run, shared by the projects that need it (test/support/global-setup.ts).
const controlPlane = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
module.exports = {
  testSequencer: '<rootDir>/test/support/test-sequencer.js',
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/runtime/test/unit/**/*.test.ts'],
    },
    {
      ...base,
      ...controlPlane,
      displayName: 'cluster',
      testMatch: ['<rootDir>/test/cluster/**/*.test.ts', '<rootDir>/runtime/test/cluster/**/*.test.ts'],
    },
    { ...base, ...controlPlane, displayName: 'engine', testMatch: ['<rootDir>/test/engine/**/*.test.ts'] },
    { ...base, ...controlPlane, displayName: 'pulumi', testMatch: ['<rootDir>/test/pulumi/**/*.test.ts'] },
    // A real node (tools/local-stack/real-node): its own control plane, started once per run.
    {
      ...base,
      globalSetup: '<rootDir>/test/support/node-global-setup.ts',
      globalTeardown: '<rootDir>/test/support/node-global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/node-health-gate.ts'],
      displayName: 'node',
      testMatch: ['<rootDir>/test/node/**/*.test.ts'],
    },
  ],
};
