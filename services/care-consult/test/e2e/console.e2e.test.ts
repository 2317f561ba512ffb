/// <reference lib="dom" />
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { aUser, type UserBuilder } from '../builders/user.builder';
import type { TestContext } from '../support/test-app';
import { createChatContext } from '../chat/support/chat-app';
import { sseFrame, startWireServer, type WireServer } from '../chat/support/wire-server';

// Debian's chromium: CHROMIUM_PATH, else /usr/bin/chromium. Without it the suite is skipped with a notice,
// except in CI (CI=true), where a missing browser must fail the run.
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find(
  (p): p is string => !!p && existsSync(p),
);
const IN_CI = process.env.CI === 'true';
if (!CHROMIUM && !IN_CI)
  console.warn('No chromium found (CHROMIUM_PATH or /usr/bin/chromium): the console browser test is skipped');
// Screenshots are test artefacts in a gitignored folder (E2E_SCREENSHOT_DIR overrides it).
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? path.join(__dirname, 'artifacts');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PASSWORD = 'correct horse';

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * platform-auth's browser-facing sign-in wire (login, refresh with rotation, logout revoking), on another
 * origin so CORS and the console's CSP are exercised. Accounts are registered per test with a token lifetime.
 */
function authStandIn() {
  const accounts = new Map<string, { user: UserBuilder; ttl: number }>();
  const live = new Map<string, string>(); // refresh token -> email
  const log: Array<{ path: string; refreshToken?: string; status: number }> = [];
  let refuseRefresh = false;
  let n = 0;
  const pair = (email: string) => {
    const a = accounts.get(email)!;
    const refreshToken = `rt-${++n}-${Math.random().toString(36).slice(2)}`;
    live.set(refreshToken, email);
    return { idToken: a.user.token({ expiresIn: a.ttl }), refreshToken, tenantId: a.user.build().tenantId };
  };
  const handler: http.RequestListener = (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'content-type');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      const reply = (status: number, json?: unknown) => {
        log.push({ path: req.url ?? '', refreshToken: body.refreshToken, status });
        if (json === undefined) return void res.writeHead(status).end();
        res
          .writeHead(status, {
            'content-type': status < 300 ? 'application/json' : 'application/problem+json',
          })
          .end(JSON.stringify(json));
      };
      const unauthorized = { type: 'about:blank', title: 'Unauthorized', status: 401 };
      if (req.url === '/api/v1/auth/login') {
        if (!accounts.has(body.email) || body.password !== PASSWORD) return reply(401, unauthorized);
        return reply(200, pair(body.email));
      }
      if (req.url === '/api/v1/auth/refresh') {
        const email = live.get(body.refreshToken);
        if (!email || refuseRefresh) return reply(401, unauthorized);
        live.delete(body.refreshToken); // rotation: a refresh token works once
        return reply(200, pair(email));
      }
      if (req.url === '/api/v1/auth/logout') {
        live.delete(body.refreshToken);
        return reply(204);
      }
      reply(404, { title: 'Not Found', status: 404 });
    });
  };
  return {
    handler,
    log,
    live,
    account(email: string, user: UserBuilder, ttl = 900) {
      accounts.set(email, { user, ttl });
    },
    refuse(on: boolean) {
      refuseRefresh = on;
    },
  };
}

// The fake OpenAI-compatible model (chat-completions SSE wire) of the second app: answers the scripted text.
let modelReply = 'Hello.';
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-e2e',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'fake-model',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

(CHROMIUM || IN_CI ? describe : describe.skip)('consultation console in headless Chromium', () => {
  let ctx: TestContext;
  let modelCtx: TestContext;
  let app: { server: http.Server; url: string };
  let modelApp: { server: http.Server; url: string };
  let auth: { server: http.Server; url: string };
  let model: WireServer;
  let browser: Browser;
  const idp = authStandIn();
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('CI=true but no chromium at CHROMIUM_PATH or /usr/bin/chromium');
    mkdirSync(SHOTS, { recursive: true });
    auth = await listen(idp.handler);
    model = await startWireServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseFrame(null, chunk({ role: 'assistant', content: '' })));
      for (const piece of modelReply.match(/[\s\S]{1,12}/g) ?? [])
        res.write(sseFrame(null, chunk({ content: piece })));
      res.write(sseFrame(null, chunk({}, 'stop')));
      res.end(sseFrame(null, '[DONE]'));
    });
    [ctx, modelCtx, browser] = await Promise.all([
      createChatContext({ env: { CONSOLE_AUTH_URL: auth.url, CHAT_OFFLINE_TOKEN_DELAY_MS: '2' } }),
      createChatContext({
        env: {
          CONSOLE_AUTH_URL: auth.url,
          LLM_PROVIDER: 'openai',
          LLM_API_KEY: 'sk-e2e',
          LLM_BASE_URL: `${model.url}/v1`,
          LLM_MODEL: 'fake-model',
        },
      }),
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
    app = await listen(ctx.app);
    modelApp = await listen(modelCtx.app);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const s of [app?.server, modelApp?.server, auth?.server])
      if (s) await new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())));
    await model?.close();
    await ctx?.close();
    await modelCtx?.close();
  });

  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
    expect(pageErrors.splice(0)).toEqual([]);
  });

  /** A fresh browser context (own sessionStorage) on the console of `base`. */
  async function open(base = app.url, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${base}/console/`);
    return page;
  }

  async function signInWithToken(page: Page, token: string) {
    await page.fill('#token-input', token);
    await page.click('#token-submit');
    await page.waitForSelector('#workspace:not([hidden])');
  }

  async function signInWithPassword(page: Page, email: string, password = PASSWORD) {
    await page.click('#tab-password');
    await page.fill('#email', email);
    await page.fill('#password', password);
    await page.click('#password-submit');
  }

  /** Sends with the keyboard (Enter) and waits for the answer to finish. */
  async function ask(page: Page, text: string) {
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
        timeout: 20_000,
      },
    );
  }

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SHOTS, `care-console-${name}.png`), fullPage: true });
  const visibleText = (page: Page) => page.evaluate(() => document.body.innerText);

  /** axe-core in the page: violations of impact serious or critical (none expected). */
  async function seriousA11yViolations(page: Page) {
    await page.evaluate(AXE_SOURCE); // evaluated through the DevTools protocol, so the page's CSP does not block it
    const violations = await page.evaluate(async () => {
      const result = await (globalThis as any).axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.map((n: any) => n.target.join(' ')),
      }));
    });
    return violations.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
  }

  it('shows only the sign-in card before sign-in, serves its icon and libraries from this origin, and passes axe', async () => {
    const page = await open();
    expect(await page.isVisible('#sign-in')).toBe(true);
    expect(await page.isVisible('#workspace')).toBe(false);
    expect(await page.isVisible('#transcript')).toBe(false);
    expect(await page.isVisible('#composer')).toBe(false);
    const icon = await page.request.get(`${app.url}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    for (const file of ['marked.umd.js', 'purify.min.js']) {
      const res = await page.request.get(`${app.url}/console/vendor/${file}`);
      expect([file, res.status()]).toEqual([file, 200]);
    }
    expect((await page.request.get(`${app.url}/console/vendor/axe.min.js`)).status()).toBe(404);
    expect(
      await page.evaluate(
        () =>
          typeof (globalThis as any).marked?.Marked === 'function' &&
          typeof (globalThis as any).DOMPurify?.sanitize === 'function',
      ),
    ).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Keyboard: arrow keys move between the sign-in tabs.
    await page.focus('#tab-token');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-password');
    expect(await page.isVisible('#pane-password')).toBe(true);
    await shot(page, 'sign-in');
  }, 60_000);

  it('signs in with email and password against the configured platform-auth, and says plainly when the password is wrong', async () => {
    idp.account('ada@example.test', aUser().inTenant('tenant-console'));
    const page = await open();
    await page.click('#tab-password');
    expect(await page.inputValue('#auth-url')).toBe(auth.url);
    await signInWithPassword(page, 'ada@example.test', 'wrong');
    await page.waitForSelector('#sign-in-error:not([hidden])');
    expect(await page.textContent('#sign-in-error')).toBe('The email or password is not right.');
    await signInWithPassword(page, 'ada@example.test');
    await page.waitForSelector('#workspace:not([hidden])');
    expect(await page.textContent('#who')).toMatch(/user@example\.test.*tenant-console/);
    expect(await page.isVisible('#sign-in')).toBe(false);
  }, 60_000);

  it('streams an answer with one quiet plain-language tool line (details behind a toggle), follows a chip, and announces it', async () => {
    const page = await open();
    await signInWithToken(page, aUser().inTenant('tenant-console').token());
    expect(await page.textContent('#allow-clinical-help')).toMatch(/clinical reference material/);
    expect(await page.getAttribute('#allow-clinical', 'aria-describedby')).toBe('allow-clinical-help');
    await page.selectOption('#agent-select', 'sleep-coach');
    await ask(page, 'How can I build a calmer bedtime routine?');
    const turn = page.locator('.turn.assistant').first();
    expect(await turn.locator('.body').textContent()).toMatch(/sleep|bed/i);
    expect(await turn.locator('.activity summary').textContent()).toBe('Checked reference material.');
    // Milliseconds, byte counts and tool ids are not in what the patient sees until they open the details.
    expect(await visibleText(page)).not.toMatch(/\bms\b|bytes|read_skill_reference/);
    await turn.locator('.activity summary').click();
    expect(await turn.locator('.activity ul').textContent()).toMatch(
      /read_skill_reference success, \d+ ms, \d+ bytes/,
    );
    expect(await page.textContent('#live')).toMatch(/^Answer: /);
    await page.waitForSelector('.suggestion');
    const chip = (await page.textContent('.suggestion'))!;
    await page.click('.suggestion');
    await page.locator('.turn.assistant:not(.streaming)').nth(1).waitFor();
    await page.waitForFunction(() => !document.querySelector('.turn.streaming'));
    expect(await page.$$eval('.turn.user .body', (nodes) => nodes.map((n) => n.textContent))).toEqual([
      'How can I build a calmer bedtime routine?',
      chip,
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'reply');
  }, 60_000);

  it('says in plain words that a clinical look-up was skipped when clinical information is off', async () => {
    const page = await open();
    await signInWithToken(page, aUser().inTenant('tenant-console').token());
    await page.selectOption('#agent-select', 'cardiology-guide');
    await ask(page, 'What are warning signs of heart disease?');
    expect(await page.textContent('.turn.assistant .activity summary')).toBe(
      'Skipped clinical reference material because clinical information is off.',
    );
    await page.click('.turn.assistant .activity summary');
    expect(await page.textContent('.turn.assistant .activity ul')).toMatch(/not allowed/);
  }, 60_000);

  it("renders the model's markdown safely: formatting shown, raw HTML and script links inert", async () => {
    modelReply = [
      '**Caffeine** stays in the body for *hours*.',
      '',
      '- avoid coffee after noon',
      '- try [a sleep diary](https://example.org/diary)',
      '',
      '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>',
      '',
      '[click me](javascript:window.__xss=3)',
    ].join('\n');
    const page = await open(modelApp.url);
    await signInWithToken(page, aUser().inTenant('tenant-console').token());
    await page.selectOption('#agent-select', 'sleep-coach');
    await ask(page, 'Why can I not sleep after coffee?');
    const body = page.locator('.turn.assistant .body');
    expect(await body.locator('strong').first().textContent()).toBe('Caffeine');
    expect(await body.locator('em').first().textContent()).toBe('hours');
    expect(await body.locator('li').count()).toBe(2);
    expect(await body.locator('a[href="https://example.org/diary"]').getAttribute('rel')).toMatch(/noopener/);
    expect(await body.textContent()).not.toContain('**');
    expect(await body.locator('img, script').count()).toBe(0);
    expect(await body.textContent()).toContain('<img src=x'); // shown as text, not parsed
    expect(await body.locator('a[href^="javascript"]').count()).toBe(0);
    await body
      .locator('text=click me')
      .click()
      .catch(() => undefined);
    expect(await page.evaluate(() => (globalThis as any).__xss)).toBeUndefined();
  }, 60_000);

  it('shows citations as numbered links to their sources, from whichever event carries them', async () => {
    const page = await open();
    await signInWithToken(page, aUser().inTenant('tenant-console').token());
    // A grounded answer as the stream may carry it: sources on the message event, more on a tool event.
    const stream = [
      sseFrame('message', {
        type: 'message',
        role: 'assistant',
        thread_id: 'th-cite',
        checkpoint_id: 'c1',
        agent_id: 'sleep-coach',
        agent_name: 'Sleep coach',
        routed: false,
        provider: 'openai',
        model: 'm',
        offline: false,
        sources: [{ n: 1, title: 'NHS: Insomnia', url: 'https://www.nhs.uk/conditions/insomnia/' }],
      }),
      sseFrame('tool_start', { type: 'tool_start', tool: 'read_skill_reference', params: {} }),
      sseFrame('tool_end', {
        type: 'tool_end',
        tool: 'read_skill_reference',
        duration_ms: 3,
        status: 'success',
        allowed: true,
        result: {
          bytes: 10,
          citations: [
            { index: 2, name: 'Sleep hygiene leaflet', href: 'https://example.org/leaflet' },
            { index: 3, title: 'Local note, no link' },
          ],
        },
      }),
      sseFrame('token', {
        type: 'token',
        content: 'Keep a regular wake time [1]. Limit screens before bed [2, 3]. Unknown [9].',
      }),
      sseFrame('suggestions', { type: 'suggestions', items: [], suggestions: [] }),
      sseFrame('done', '[DONE]'),
    ].join('');
    await page.route('**/api/chat', (route) =>
      route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: stream }),
    );
    await ask(page, 'How do I sleep better?');
    const turn = page.locator('.turn.assistant');
    expect(
      await turn
        .locator('.body sup.cite a')
        .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')])),
    ).toEqual([
      ['[1]', 'https://www.nhs.uk/conditions/insomnia/'],
      ['[2]', 'https://example.org/leaflet'],
      ['[3]', '#t1-src-3'],
    ]);
    expect(await turn.locator('.body sup.cite:not(:has(a))').textContent()).toBe('[9]');
    expect(
      await turn
        .locator('.sources li')
        .evaluateAll((lis) =>
          lis.map((li) => [li.id, li.textContent, li.querySelector('a')?.getAttribute('href') ?? null]),
        ),
    ).toEqual([
      ['t1-src-1', 'NHS: Insomnia', 'https://www.nhs.uk/conditions/insomnia/'],
      ['t1-src-2', 'Sleep hygiene leaflet', 'https://example.org/leaflet'],
      ['t1-src-3', 'Local note, no link', null],
    ]);
    await shot(page, 'citations');
  }, 60_000);

  it('shows an emergency refusal once, in plain words, and lets the person continue only after confirming they are safe', async () => {
    const page = await open();
    await signInWithToken(page, aUser().inTenant('tenant-console').token());
    await ask(page, 'My husband suddenly cannot lift his arm and his speech is slurred');
    expect(await page.isVisible('#emergency')).toBe(true);
    expect(await page.getAttribute('#emergency', 'role')).toBe('alert');
    expect(await page.textContent('#emergency-title')).toBe('Possible stroke');
    const advice = (await page.textContent('#emergency-message'))!;
    expect(advice).toMatch(/emergency|911|112|999/i);
    const text = await visibleText(page);
    expect(text.split(advice).length - 1).toBe(1); // once, not again in the transcript
    expect(text).not.toMatch(/stroke[ _]fast|emergency_red_flag/i);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('emergency-title');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'emergency');
    // No further messages until the person confirms; the button stays disabled until the box is ticked.
    expect(await page.isDisabled('#message')).toBe(true);
    expect(await page.isDisabled('#send')).toBe(true);
    expect(await page.isDisabled('#emergency-continue')).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('emergency-safe');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('emergency-continue');
    await page.keyboard.press('Enter');
    expect(await page.isVisible('#emergency')).toBe(false);
    expect(await page.isDisabled('#message')).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('message');
    // The advice stays reachable in the transcript, folded, still only once on screen.
    expect(await page.textContent('.turn.refused .body summary')).toBe('Emergency advice: Possible stroke');
    expect((await visibleText(page)).split(advice).length - 1).toBe(0);
    await page.click('.turn.refused .body summary');
    expect((await visibleText(page)).split(advice).length - 1).toBe(1);
    await ask(page, 'Thank you, the ambulance is here. How do I lower salt in meals?');
    expect(await page.locator('.turn.assistant').count()).toBe(2);
    // Reopened after a reload, the refused turn is a folded note, not a new alarm.
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('.turn.assistant').length === 2);
    expect(await page.isVisible('#emergency')).toBe(false);
    expect(await page.textContent('.turn.refused .body summary')).toBe('Emergency advice: Possible stroke');
    expect((await visibleText(page)).split(advice).length - 1).toBe(0);
    expect(await page.isDisabled('#message')).toBe(false);
  }, 60_000);

  it("lists the user's conversations newest first, keeps the current one across a reload, and reopens any with its history", async () => {
    const user = aUser().inTenant('tenant-console');
    const page = await open();
    await signInWithToken(page, user.token());
    expect(await page.isVisible('#threads-empty')).toBe(true);
    await page.selectOption('#agent-select', 'sleep-coach');
    await ask(page, 'How can I build a calmer bedtime routine?');
    await ask(page, 'And what about naps?');
    await page.waitForSelector('#threads button');
    const first = await page.getAttribute('#threads button', 'data-thread-id');
    await page.click('#new-thread');
    expect(await page.locator('.turn').count()).toBe(0);
    await ask(page, 'Is a warm bath before bed a good idea?');
    await page.waitForFunction(() => document.querySelectorAll('#threads button').length === 2);
    const titles = await page.$$eval('#threads .thread-title', (n) => n.map((x) => x.textContent));
    expect(titles).toEqual([
      'Is a warm bath before bed a good idea?',
      'How can I build a calmer bedtime routine?',
    ]);
    expect(await page.getAttribute('#threads li:first-child button', 'aria-current')).toBe('true');

    await page.reload();
    await page.waitForSelector('#workspace:not([hidden])');
    await page.waitForSelector('.turn.assistant');
    expect(await page.$$eval('.turn.user .body', (n) => n.map((x) => x.textContent))).toEqual([
      'Is a warm bath before bed a good idea?',
    ]);
    expect(await page.textContent('#who')).toMatch(/Signed in/);

    await page.click(`#threads button[data-thread-id="${first}"]`);
    await page.waitForFunction(() => document.querySelectorAll('.turn.user').length === 2);
    expect(await page.$$eval('.turn.user .body', (n) => n.map((x) => x.textContent))).toEqual([
      'How can I build a calmer bedtime routine?',
      'And what about naps?',
    ]);
    expect(await page.locator('.turn.assistant .body').first().textContent()).toMatch(/sleep|bed/i);
    expect(await page.getAttribute(`#threads button[data-thread-id="${first}"]`, 'aria-current')).toBe(
      'true',
    );
    // Continuing sends the whole reopened history on the same thread, which moves to the top of the list.
    await ask(page, 'One more question about naps');
    await page.waitForFunction(
      (id) => document.querySelector('#threads li:first-child button')?.getAttribute('data-thread-id') === id,
      first,
    );
    expect(await page.locator('.turn.user').count()).toBe(3);
    // Another user of the tenant does not see these conversations.
    const other = await open();
    await signInWithToken(other, aUser().inTenant('tenant-console').token());
    await other.waitForSelector('#threads-empty:not([hidden])');
    expect(await other.locator('#threads button').count()).toBe(0);
  }, 90_000);

  it('renews the token with the refresh token before it expires, and sign-out revokes the refresh token', async () => {
    idp.account('short@example.test', aUser().inTenant('tenant-console'), 4);
    const page = await open();
    const refreshes = () =>
      idp.log.filter((l) => l.path === '/api/v1/auth/refresh' && l.status === 200).length;
    const start = refreshes();
    const signedInAt = Date.now();
    await signInWithPassword(page, 'short@example.test');
    await page.waitForSelector('#workspace:not([hidden])');
    // 4 s tokens are renewed a second before they expire: two renewals within about 6 s (waited for, not slept
    // for, so a loaded machine only makes it slower), and the first token is dead after 5 s.
    const deadline = Date.now() + 20_000;
    while (refreshes() - start < 2 && Date.now() < deadline) await page.waitForTimeout(100);
    expect(refreshes() - start).toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(Math.max(0, signedInAt + 5000 - Date.now()));
    await page.selectOption('#agent-select', 'sleep-coach');
    await ask(page, 'How can I build a calmer bedtime routine?');
    expect(await page.locator('.turn.assistant.failed').count()).toBe(0);
    expect(await page.textContent('#who')).toMatch(/Signed in/);
    const saved = await page.evaluate(
      () => JSON.parse(sessionStorage.getItem('care-console-session')!).refreshToken as string,
    );
    expect(idp.live.has(saved)).toBe(true);
    await page.click('#sign-out');
    await page.waitForSelector('#sign-in:not([hidden])');
    expect(idp.log.at(-1)).toMatchObject({ path: '/api/v1/auth/logout', refreshToken: saved, status: 204 });
    expect(idp.live.has(saved)).toBe(false);
    expect(await page.evaluate(() => sessionStorage.getItem('care-console-session'))).toBeNull();
    expect(await page.textContent('#who')).toBe('Not signed in');
  }, 60_000);

  it('asks plainly to sign in again when the refresh is refused or a pasted token expires', async () => {
    // 5 s tokens: a loaded machine opens the workspace well before the first renewal (at 3.75 s) is refused.
    idp.account('refused@example.test', aUser().inTenant('tenant-console'), 5);
    const page = await open();
    await signInWithPassword(page, 'refused@example.test');
    await page.waitForSelector('#workspace:not([hidden])');
    idp.refuse(true);
    try {
      await page.waitForSelector('#sign-in:not([hidden])', { timeout: 12_000 });
    } finally {
      idp.refuse(false);
    }
    expect(await page.textContent('#session-ended')).toMatch(/session has ended.*sign in again/i);
    expect(await page.textContent('#who')).toBe('Not signed in');
    expect(await page.isVisible('#workspace')).toBe(false);

    // A pasted token has no refresh token: the page ends the session shortly before it expires. Five seconds
    // leaves a loaded machine time to open the workspace first.
    const pasted = await open();
    await signInWithToken(pasted, aUser().inTenant('tenant-console').token({ expiresIn: 5 }));
    await pasted.waitForSelector('#sign-in:not([hidden])', { timeout: 12_000 });
    expect(await pasted.textContent('#session-ended')).toMatch(/sign in again/i);
    expect(await pasted.textContent('#who')).toBe('Not signed in');
  }, 60_000);

  it('does not open the workspace when a pasted token expires while the service is still answering', async () => {
    const page = await open();
    // The service accepts the token at once, but its answer reaches the page only after the token's end-of-session
    // timer has fired (about 1.5 s for a 2 s token).
    await page.route('**/api/agents?*', async (route) => {
      const response = await route.fetch();
      await new Promise((r) => setTimeout(r, 3000));
      await route.fulfill({ response });
    });
    const asked = page.waitForResponse((r) => r.url().includes('/api/agents'), { timeout: 15_000 });
    await page.fill('#token-input', aUser().inTenant('tenant-console').token({ expiresIn: 2 }));
    await page.click('#token-submit');
    await asked;
    await page.waitForTimeout(300);
    expect(await page.isVisible('#workspace')).toBe(false);
    expect(await page.isVisible('#sign-in')).toBe(true);
    expect(await page.textContent('#who')).toBe('Not signed in');
    expect(await page.textContent('#session-ended')).toMatch(/sign in again/i);
  }, 60_000);

  it('fits a 360 px wide screen without sideways scrolling, signed out, answering and in an emergency', async () => {
    const page = await open(app.url, { width: 360, height: 740 });
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await signInWithToken(page, aUser().inTenant('tenant-console').token());
    await page.selectOption('#agent-select', 'sleep-coach');
    await ask(page, 'How can I build a calmer bedtime routine?');
    expect(await overflow()).toBeLessThanOrEqual(0);
    const send = await page.locator('#send').boundingBox();
    expect(send!.x + send!.width).toBeLessThanOrEqual(360);
    await shot(page, 'narrow-reply');
    await ask(page, 'My husband suddenly cannot lift his arm and his speech is slurred');
    expect(await overflow()).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'narrow-emergency');
  }, 60_000);
});
