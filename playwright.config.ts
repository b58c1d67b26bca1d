import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

// E2E_PORT lets several checkouts run their browser tests side by side.
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
/** The browser tests' fake Bot API (e2e/channels.spec.ts) listens here; the app's tg client points at it. */
const fakeTgPort = port + 1;
/** And their fake Cloud API (e2e/channels-chatapp.spec.ts), for the chat-app channel. */
const fakeCloudPort = port + 2;
/** And their fake Instagram Graph API (e2e/channels-instagram.spec.ts), for the social channel. */
const fakeInstagramPort = port + 3;
// port + 4: the fake OpenAI-compatible server of e2e/ai.spec.ts, whose address the test types in Settings, AI.
// Debian's Chromium where present (this project's CI); elsewhere `npx playwright install chromium`.
const debianChromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const executablePath = fs.existsSync(debianChromium) ? debianChromium : undefined;

export default defineConfig({
  testDir: 'e2e',
  // Tests wait for conditions, never for time; this only bounds a hang. CI's machine may be
  // loaded by other work, where one page load takes seconds.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    // A trace (a screenshot of every frame, the page before and after each step) cost the browser
    // a fifth more CPU on every test, failing or not: recorded only when asked
    // (E2E_TRACE=1 npm run test:e2e), to look at a failure found without one.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    // A fresh embedded database for every run; `next` started directly so stopping it stops the server.
    command: `rm -rf .e2e-data && ./node_modules/.bin/next start -H 127.0.0.1 -p ${port}`,
    url: `${baseURL}/sign-in`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      BLOCKBOT_DATA_DIR: '.e2e-data',
      BLOCKBOT_BASE_URL: baseURL,
      BLOCKBOT_AUTH_RATE_LIMIT: 'off',
      // Browser tests' fake third-party APIs listen on 127.0.0.1: the safe client may reach them.
      BLOCKBOT_HTTP_ALLOW_HOSTS: '127.0.0.1',
      BLOCKBOT_TG_API_ROOT: `http://127.0.0.1:${fakeTgPort}`,
      BLOCKBOT_CHATAPP_API_ROOT: `http://127.0.0.1:${fakeCloudPort}/v23.0`,
      BLOCKBOT_SOCIAL_API_ROOT: `http://127.0.0.1:${fakeInstagramPort}/v21.0`,
      PORT: String(port),
    },
  },
});
