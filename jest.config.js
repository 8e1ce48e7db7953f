import { availableParallelism } from 'node:os';

/**
 * `npm test`'s jest run. ESM throughout: ts-jest transpiles only (tsc --noEmit type-checks separately in
 * npm test). The load and soak runs of test/load run apart (`npm run test:load`, jest.load.config.js).
 */
export const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  testTimeout: 30000,
};

export default {
  ...shared,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/load/'],
  // Jest's default (one worker per core but one) runs the files one after the other on two cores, while
  // a file waits a good part of its time on DynamoDB Local, the processes it starts and real timeouts.
  // More workers than cores let other files run while some wait. The whole run on two cores, quiet, warm
  // caches, one run each: three workers 342 s (605 s of CPU), four 266 s (481 s of CPU); on a later commit
  // (6,297 tests), four 306 s (561 s of CPU), five 287 s (522 s of CPU).
  maxWorkers: availableParallelism() + 3,
};
