import { resolve } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { SERVER_NODE_FLAGS } from './scripts/node-flags.mjs';

// E2E_PORT_BASE moves the whole suite (app, no-provider app, fake model) so two checkouts can run their
// suites side by side on one machine; the default is the suite's usual ports.
const base = Number(process.env.E2E_PORT_BASE ?? 3100);
const appPort = base;
const noProviderPort = base + 1;
const fakeModelPort = base + 910;
export const APP_URL = `http://127.0.0.1:${appPort}`;
export const NO_PROVIDER_URL = `http://127.0.0.1:${noProviderPort}`;
export const FAKE_MODEL_URL = `http://127.0.0.1:${fakeModelPort}`;

/** The project's own Node 22 (better-sqlite3 needs it), whichever node launched Playwright. */
const node = resolve('node_modules/.bin/node');
/**
 * `next start` as `npm start` runs it. Its idle keep-alive connections live 10 minutes instead of Node's 5 s:
 * the suite's request contexts keep sockets between steps, and one reused just as the server closed it
 * failed a request with ECONNRESET (e2e 42 on Postgres in CI).
 */
const next = `${node} ${SERVER_NODE_FLAGS.join(' ')} node_modules/next/dist/bin/next start -H 127.0.0.1 --keepAliveTimeout 600000`;
/** E2E_DATABASE=postgres: the app runs on a fresh real Postgres (e2e/fixtures/with-postgres.ts) instead of SQLite. */
const onPostgres = process.env.E2E_DATABASE === 'postgres';
const appServer = onPostgres
  ? `mkdir -p data/e2e && DATABASE_FILES_NOTE=data/e2e/postgres-data-dir ${node} --import tsx e2e/fixtures/with-postgres.ts ${next}`
  : next;

export default defineConfig({
  testDir: './e2e',
  // Every spec depends on `setup`, which makes the admin on each run's fresh database (the first
  // sign-up) and sets the suite's chat rate: any spec runs alone or in any order. Accounts other than the
  // admin belong to one spec each (e2e/accounts.ts).
  projects: [
    { name: 'setup', testMatch: 'first-admin.setup.ts' },
    {
      name: 'e2e',
      testMatch: '**/*.spec.ts',
      // The multi-instance specs start their own Postgres, Redis and instances: once per `npm test` is enough.
      testIgnore: onPostgres ? ['**/*-multi-instance*.spec.ts'] : [],
      dependencies: ['setup'],
    },
  ],
  workers: 1,
  fullyParallel: false,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: APP_URL,
    ...devices['Desktop Chrome'],
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: [
    {
      command: `${node} e2e/fixtures/fake-openai.mjs`,
      url: `${FAKE_MODEL_URL}/health`,
      env: { FAKE_OPENAI_PORT: String(fakeModelPort) },
      reuseExistingServer: false,
    },
    {
      command: `rm -rf data/e2e && ${appServer} -p ${appPort}`,
      url: `${APP_URL}/api/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      env: {
        DATABASE_PATH: './data/e2e/app.db',
        APP_URL,
        OPENAI_BASE_URL: `${FAKE_MODEL_URL}/v1`,
        OPENAI_API_KEY: 'sk-test-canary-key',
        CHAT_MODEL: 'fake-model',
        MCP_SERVERS_FILE: 'e2e/fixtures/mcp-servers.e2e.json',
      },
    },
    {
      command: `rm -rf data/e2e-noprovider && ${next} -p ${noProviderPort}`,
      url: `${NO_PROVIDER_URL}/api/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      env: {
        DATABASE_PATH: './data/e2e-noprovider/app.db',
        APP_URL: NO_PROVIDER_URL,
        OPENAI_BASE_URL: '',
        OPENAI_API_KEY: '',
        MCP_SERVERS_FILE: '',
      },
    },
  ],
});
