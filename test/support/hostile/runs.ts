/**
 * Generated cases per route in the hostile-input, size-growth and isolation suites: a quick, seeded
 * few in `npm test` (they run on every one of the route table's ~260 rows, so each case costs the
 * suite ~260 requests), ≥ 1,000 in `npm run test:hostile`.
 */
export const HOSTILE_RUNS = Number(process.env.HOSTILE_RUNS ?? 12);
