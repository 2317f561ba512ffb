/// <reference lib="dom" />
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startCluster, type Cluster } from './support/cluster';

// The consultation console served by the real care-consult, signing in at the real platform-auth on another
// origin (CORS, the console's CSP, the config it reads), in Debian's headless Chromium. Nothing is stood in.
// CHROMIUM_PATH, else /usr/bin/chromium; without it the test is skipped with a notice, except in CI (CI=true),
// where a missing browser fails the run.
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find(
  (p): p is string => !!p && existsSync(p),
);
const IN_CI = process.env.CI === 'true';
if (!CHROMIUM && !IN_CI)
  console.warn(
    'No chromium found (CHROMIUM_PATH or /usr/bin/chromium): the cross-service console browser test is skipped',
  );

// platform-auth's shortest allowed access-token lifetime (JWT_TTL_SECONDS has a floor of 30 s).
const TTL_SECONDS = 30;
const STORE_KEY = 'care-console-session';

(CHROMIUM || IN_CI ? describe : describe.skip)(
  'console against the real platform-auth and care-consult',
  () => {
    let cluster: Cluster;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];
    const authCalls: Array<{ path: string; status: number }> = [];
    const chatCalls: Array<{ status: number; type: string; bearer: string }> = [];

    beforeAll(async () => {
      if (!CHROMIUM) throw new Error('CI=true but no chromium at CHROMIUM_PATH or /usr/bin/chromium');
      [cluster, browser] = await Promise.all([
        startCluster((urls) => ({
          // care-consult tells the console where platform-auth is (GET /console/config.json, and its CSP connect-src);
          // platform-auth lets exactly the console's origin call it from a browser.
          consult: { CONSOLE_AUTH_URL: urls.auth, CHAT_OFFLINE_TOKEN_DELAY_MS: '2' },
          auth: { CORS_ALLOWED_ORIGINS: urls.consult, JWT_TTL_SECONDS: String(TTL_SECONDS) },
        })),
        chromium.launch({
          executablePath: CHROMIUM,
          headless: true,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        }),
      ]);
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      page.on('pageerror', (err) => pageErrors.push(err.message));
      page.on('response', (res) => {
        const url = new URL(res.url());
        if (
          url.origin === cluster.auth.url &&
          url.pathname.startsWith('/api/v1/auth/') &&
          res.request().method() === 'POST'
        ) {
          authCalls.push({ path: url.pathname, status: res.status() });
        }
        if (
          url.origin === cluster.consult.url &&
          url.pathname === '/api/chat' &&
          res.request().method() === 'POST'
        ) {
          const bearer = (res.request().headers().authorization ?? '').replace(/^Bearer /, '');
          chatCalls.push({ status: res.status(), type: res.headers()['content-type'] ?? '', bearer });
        }
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await cluster?.stop();
    });

    /** Sends with the keyboard and waits until the answer has finished streaming; returns its text. */
    async function ask(text: string): Promise<string> {
      const before = await page.locator('.turn.assistant').count();
      await page.fill('#message', text);
      await page.press('#message', 'Enter');
      await page.locator('.turn.assistant').nth(before).waitFor();
      await page.waitForFunction(
        (n) =>
          document.querySelectorAll('.turn.assistant:not(.streaming)').length > n &&
          !document.querySelector('.turn.streaming'),
        before,
        {
          timeout: 30_000,
        },
      );
      return (await page.locator('.turn.assistant').nth(before).locator('.body').textContent()) ?? '';
    }

    const stored = () =>
      page.evaluate(
        (key) =>
          JSON.parse(sessionStorage.getItem(key) ?? 'null') as {
            token: string;
            refreshToken: string;
            authUrl: string;
          } | null,
        STORE_KEY,
      );
    const claimsOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as {
        exp: number;
        iat: number;
        sub: string;
      };

    it('signs in by password, streams answers, renews the expiring token by itself, and sign-out revokes the refresh token', async () => {
      await page.goto(`${cluster.consult.url}/console/`);
      await page.click('#tab-password');
      // The console learnt platform-auth's URL from care-consult's config.
      expect(await page.inputValue('#auth-url')).toBe(cluster.auth.url);
      await page.fill('#email', cluster.admin.email);
      await page.fill('#password', cluster.admin.password);
      await page.click('#password-submit');
      await page.waitForSelector('#workspace:not([hidden])', { timeout: 15_000 });
      expect(await page.isVisible('#sign-in')).toBe(false);
      expect(await page.textContent('#who')).toContain(cluster.admin.email);
      expect(authCalls).toEqual([{ path: '/api/v1/auth/login', status: 200 }]);

      const first = (await stored())!;
      expect(first.authUrl).toBe(cluster.auth.url);
      const firstClaims = claimsOf(first.token);
      expect(firstClaims.exp - firstClaims.iat).toBe(TTL_SECONDS);

      expect((await ask('How can I build a calmer bedtime routine?')).trim().length).toBeGreaterThan(0);
      // The answer came from care-consult as an event stream, with the token platform-auth issued.
      expect(chatCalls).toEqual([
        { status: 200, type: expect.stringMatching(/^text\/event-stream/), bearer: first.token },
      ]);

      // Past the first access token's expiry: care-consult itself refuses that token now...
      const waitMs = firstClaims.exp * 1000 - Date.now() + 1500;
      if (waitMs > 0) await page.waitForTimeout(waitMs);
      const expired = await fetch(`${cluster.consult.url}/api/agents`, {
        headers: { authorization: `Bearer ${first.token}` },
      });
      expect(expired.status).toBe(401);
      // ...while the console renewed it at platform-auth on its own, with the rotating refresh token.
      expect(authCalls.filter((c) => c.path === '/api/v1/auth/refresh')).toContainEqual({
        path: '/api/v1/auth/refresh',
        status: 200,
      });
      const renewed = (await stored())!;
      expect(renewed.token).not.toBe(first.token);
      expect(renewed.refreshToken).not.toBe(first.refreshToken);
      expect(claimsOf(renewed.token).exp).toBeGreaterThan(Date.now() / 1000);
      expect(claimsOf(renewed.token).sub).toBe(firstClaims.sub);

      // A second message succeeds without signing in again.
      expect((await ask('And what should I avoid in the evening?')).trim().length).toBeGreaterThan(0);
      expect(chatCalls.slice(1)).toEqual([
        { status: 200, type: expect.stringMatching(/^text\/event-stream/), bearer: renewed.token },
      ]);
      expect(await page.isVisible('#sign-in')).toBe(false);
      expect(await page.locator('.turn.assistant.error, .turn.error').count()).toBe(0);

      // Sign-out: the refresh token in the page is revoked at the real platform-auth and the sign-in card is back.
      const beforeSignOut = (await stored())!;
      await page.click('#sign-out');
      await page.waitForSelector('#sign-in:not([hidden])');
      expect(await page.isVisible('#workspace')).toBe(false);
      expect(await stored()).toBeNull();
      expect(authCalls.at(-1)).toEqual({ path: '/api/v1/auth/logout', status: 204 });
      const refused = await fetch(`${cluster.auth.url}/api/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: beforeSignOut.refreshToken }),
      });
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toContain(beforeSignOut.refreshToken);

      expect(pageErrors).toEqual([]);
      // The password and the tokens never reach a process log.
      const logs = [cluster.auth, cluster.consult, cluster.memory].map((s) => s.output.join('')).join('\n');
      for (const secret of [
        cluster.admin.password,
        first.refreshToken,
        beforeSignOut.refreshToken,
        first.token,
      ])
        expect(logs).not.toContain(secret);
    }, 90_000);
  },
);
