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
  // One worker more than the cores lets a third file run while another waits: test/e2e on two cores,
  // under the same load of other processes, 330 s with two workers, 280 s with three, the same CPU; a
  // whole run with three on a quiet machine, 424 s of CPU in 240 s (both cores busy 88% of the time).
  maxWorkers: availableParallelism() + 1,
};
