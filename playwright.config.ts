import { resolve } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { SERVER_NODE_FLAGS } from './scripts/node-flags.mjs';

export const APP_URL = 'http://127.0.0.1:3100';
export const NO_PROVIDER_URL = 'http://127.0.0.1:3101';
export const FAKE_MODEL_URL = 'http://127.0.0.1:4010';

/** The project's own Node 22 (better-sqlite3 needs it), whichever node launched Playwright. */
const node = resolve('node_modules/.bin/node');
const next = `${node} ${SERVER_NODE_FLAGS.join(' ')} node_modules/next/dist/bin/next start -H 127.0.0.1`;

export default defineConfig({
  testDir: './e2e',
  // Every spec depends on `setup`, which makes the admin on each run's fresh database (the first
  // sign-up) and sets the suite's chat rate: any spec runs alone or in any order. Accounts other than the
  // admin belong to one spec each (e2e/accounts.ts).
  projects: [
    { name: 'setup', testMatch: 'first-admin.setup.ts' },
    { name: 'e2e', testMatch: '**/*.spec.ts', dependencies: ['setup'] },
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
      env: { FAKE_OPENAI_PORT: '4010' },
      reuseExistingServer: false,
    },
    {
      command: `rm -rf data/e2e && ${next} -p 3100`,
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
      command: `rm -rf data/e2e-noprovider && ${next} -p 3101`,
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
