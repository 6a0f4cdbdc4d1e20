// `npm run test:faults`: the fault cases R5–R7 (test/app-faults/*.test.ts) against the production build,
// as real processes (the app is killed, restarted and fuzzed). Needs `npm run build` first; builds nothing.
// Extra arguments go to `node --test` (scripts/test.mjs passes --test-reporter=spec).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('.next/BUILD_ID')) {
  console.error(
    'test:faults needs a production build in .next (BUILD_ID missing): run `npm run build` first.',
  );
  process.exit(1);
}
const args = [
  '--import',
  'tsx',
  '--conditions=react-server',
  '--test',
  '--test-concurrency=1',
  '--test-timeout=180000',
  ...process.argv.slice(2),
  'test/app-faults/**/*.test.ts',
];
const res = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(res.status ?? 1);
