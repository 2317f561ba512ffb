import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { aUser } from '../builders/user.builder';
import type { TestContext } from '../support/test-app';
import { createChatContext } from '../chat/support/chat-app';

// Debian's chromium: CHROMIUM_PATH, else /usr/bin/chromium. Without it the suite is skipped with a notice,
// except in CI (CI=true), where a missing browser must fail the run.
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((p): p is string => !!p && existsSync(p));
const IN_CI = process.env.CI === 'true';
if (!CHROMIUM && !IN_CI) console.warn('No chromium found (CHROMIUM_PATH or /usr/bin/chromium): the console browser test is skipped');
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? os.tmpdir();

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

(CHROMIUM || IN_CI ? describe : describe.skip)('consultation console in headless Chromium', () => {
  let ctx: TestContext;
  let app: { server: http.Server; url: string };
  let auth: { server: http.Server; url: string };
  let browser: Browser;
  let page: Page;
  const user = aUser().inTenant('tenant-console');

  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('CI=true but no chromium at CHROMIUM_PATH or /usr/bin/chromium');
    // platform-auth stand-in for the email/password sign-in (another origin, so CORS and the CSP are exercised).
    auth = await listen((req, res) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Headers', 'content-type');
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw || '{}');
        if (req.url !== '/api/v1/auth/login' || body.password !== 'correct horse') return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"title":"Unauthorized","status":401}');
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ idToken: user.token(), refreshToken: 'r', tenantId: 'tenant-console' }));
      });
    });
    ctx = await createChatContext({ env: { CONSOLE_AUTH_URL: auth.url, CHAT_OFFLINE_TOKEN_DELAY_MS: '2' } });
    app = await listen(ctx.app);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (err) => console.warn('page error:', err.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const s of [app?.server, auth?.server]) if (s) await new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())));
    await ctx?.close();
  });

  it('signs in with a pasted token, streams a reply with tool calls and suggestion chips, and follows a chip', async () => {
    await page.goto(`${app.url}/console/`);
    await page.fill('#token-input', user.token());
    await page.click('#token-submit');
    await page.waitForSelector('#workspace:not([hidden])');
    await page.selectOption('#agent-select', 'sleep-coach');
    await page.fill('#message', 'How can I build a calmer bedtime routine?');
    await page.click('#send');
    await page.waitForSelector('.suggestion', { timeout: 20_000 });
    await page.waitForSelector('.turn.assistant:not(.streaming)');
    const reply = await page.textContent('.turn.assistant .body');
    expect(reply).toMatch(/sleep|bed/i);
    expect(await page.textContent('.tool.ok')).toMatch(/read_skill_reference.*success/);
    expect(await page.textContent('#thread-id')).not.toBe('new');
    await page.screenshot({ path: path.join(SHOTS, 'care-console-reply.png'), fullPage: true });
    const chip = (await page.textContent('.suggestion'))!;
    await page.click('.suggestion');
    await page.locator('.turn.assistant:not(.streaming) .body').nth(1).waitFor();
    const turns = await page.$$eval('.turn.user .body', (nodes) => nodes.map((n) => n.textContent));
    expect(turns).toEqual(['How can I build a calmer bedtime routine?', chip]);
  }, 60_000);

  it('shows a refusal as an emergency banner and a clinical tool refusal as not allowed', async () => {
    await page.click('#new-thread');
    await page.selectOption('#agent-select', 'cardiology-guide');
    await page.fill('#message', 'What are warning signs of heart disease?');
    await page.click('#send');
    await page.waitForSelector('.tool.denied');
    expect(await page.textContent('.tool.denied')).toMatch(/not allowed/);
    await page.waitForSelector('.turn.assistant:not(.streaming)');
    await page.fill('#message', 'My husband suddenly cannot lift his arm and his speech is slurred');
    await page.click('#send');
    await page.waitForSelector('#emergency:not([hidden])');
    expect(await page.getAttribute('#emergency', 'role')).toBe('alert');
    expect(await page.textContent('#emergency-message')).toMatch(/emergency|911|112|999/i);
    expect(await page.textContent('#emergency-category')).toMatch(/stroke/);
    expect(await page.$$('.turn.refused')).toHaveLength(1);
    await page.screenshot({ path: path.join(SHOTS, 'care-console-emergency.png'), fullPage: true });
  }, 60_000);

  it('signs in with email and password against the configured platform-auth, and rejects a wrong password', async () => {
    const fresh = await browser.newPage();
    try {
      await fresh.goto(`${app.url}/console/`);
      await fresh.click('#tab-password');
      expect(await fresh.inputValue('#auth-url')).toBe(auth.url);
      await fresh.fill('#email', 'ada@example.test');
      await fresh.fill('#password', 'wrong');
      await fresh.click('#password-submit');
      await fresh.waitForSelector('#sign-in-error:not([hidden])');
      await fresh.fill('#password', 'correct horse');
      await fresh.click('#password-submit');
      await fresh.waitForSelector('#workspace:not([hidden])');
      expect(await fresh.textContent('#who')).toMatch(/tenant-console/);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
