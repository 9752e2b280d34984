// Test tiers are Jest projects; tools/test.sh runs them in order and reports which ran.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }];
const base = { testEnvironment: 'node', transform: { '^.+\\.ts$': tsJest }, moduleFileExtensions: ['ts', 'js', 'json'] };
module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/runtime/test/unit/**/*.test.ts'] },
    { ...base, displayName: 'cluster', testMatch: ['<rootDir>/test/cluster/**/*.test.ts', '<rootDir>/runtime/test/cluster/**/*.test.ts'] },
    { ...base, displayName: 'engine', testMatch: ['<rootDir>/test/engine/**/*.test.ts'] },
    { ...base, displayName: 'pulumi', testMatch: ['<rootDir>/test/pulumi/**/*.test.ts'] },
  ],
};
