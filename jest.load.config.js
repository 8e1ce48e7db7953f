import { shared } from './jest.config.js';

/**
 * `npm run test:load`: the load and soak runs (thousands of requests, hundreds of random sequences),
 * minutes of work that `npm test` leaves out to stay quick; CI runs them after it (.ci/run). One file at
 * a time: each is concurrent work of its own, and has the machine to itself.
 */
export default {
  ...shared,
  testMatch: ['<rootDir>/test/load/**/*.test.ts'],
  maxWorkers: 1,
};
