import http from 'node:http';
import https from 'node:https';

/** One HTTP answer as a browser sees it before following a redirect. */
export interface Hop {
  url: string;
  status: number;
  location?: string;
  body: string;
}

interface Cookie {
  name: string;
  value: string;
  origin: string;
  path: string;
}

/**
 * The test's browser: plain HTTP(S) requests with a cookie jar, one hop at a time so a test can look at every
 * redirect (provider -> relay -> app). Cookies are kept per origin and path (RFC 6265 path matching; `Max-Age=0` or
 * a past `Expires` deletes). TLS trusts only the given certificate, as a browser would after the user installed it.
 */
export class UserAgent {
  private cookies: Cookie[] = [];

  constructor(private readonly ca: string | Buffer) {}

  /** GET or a form POST of `url`, without following a redirect. */
  request(url: string, form?: Record<string, string>): Promise<Hop> {
    const target = new URL(url);
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const headers: Record<string, string> = { accept: 'text/html,application/json' };
    const cookie = this.cookieHeader(target);
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const send = target.protocol === 'https:' ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const req = send(target, { method: form ? 'POST' : 'GET', headers, ca: this.ca }, (res) => {
        this.store(target, res.headers['set-cookie'] ?? []);
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const location = res.headers.location ? new URL(res.headers.location, target).href : undefined;
          resolve({ url: target.href, status: res.statusCode ?? 0, location, body: text });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /**
   * Follows redirects from `url` (GET) until an answer that is not a redirect, or until the next hop would leave for
   * `stopBefore` (an origin + path prefix), whose address is then the last hop's `location`. Returns every hop.
   */
  async follow(url: string, stopBefore?: string, form?: Record<string, string>): Promise<Hop[]> {
    const hops: Hop[] = [];
    let hop = await this.request(url, form);
    hops.push(hop);
    while (hop.status >= 300 && hop.status < 400 && hop.location) {
      if (stopBefore && hop.location.startsWith(stopBefore)) break;
      if (hops.length > 20) throw new Error(`too many redirects from ${url}`);
      hop = await this.request(hop.location);
      hops.push(hop);
    }
    return hops;
  }

  private cookieHeader(target: URL): string {
    return this.cookies
      .filter((c) => c.origin === target.origin && pathMatches(target.pathname, c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(target: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = target.pathname.slice(0, target.pathname.lastIndexOf('/')) || '/';
      let expired = false;
      for (const attribute of attributes) {
        const [key, val = ''] = attribute.split('=');
        const k = key.toLowerCase();
        if (k === 'path' && val.startsWith('/')) path = val;
        if (k === 'max-age' && Number(val) <= 0) expired = true;
        if (k === 'expires' && Date.parse(val) <= Date.now()) expired = true;
      }
      this.cookies = this.cookies.filter(
        (c) => !(c.name === name && c.origin === target.origin && c.path === path),
      );
      if (!expired) this.cookies.push({ name, value, origin: target.origin, path });
    }
  }
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** The `action` of the first form in an HTML page, resolved against the page's URL. */
export function formAction(html: string, pageUrl: string): string {
  const match = /<form[^>]*\saction="([^"]+)"/i.exec(html);
  if (!match) throw new Error(`no form on ${pageUrl}: ${html.slice(0, 300)}`);
  return new URL(decodeEntities(match[1]), pageUrl).href;
}

/** The hidden inputs of an HTML page (name -> value), as a browser would submit them with its form. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(m[0])?.[1];
    const value = /value="([^"]*)"/.exec(m[0])?.[1] ?? '';
    if (name) fields[name] = decodeEntities(value);
  }
  return fields;
}

/** The `href` of the first link whose text contains `text`, resolved against the page's URL. */
export function linkTo(html: string, text: string, pageUrl: string): string {
  for (const m of html.matchAll(/<a[^>]*href="([^"]+)"[^>]*>([^<]*)<\/a>/gi))
    if (m[2].includes(text)) return new URL(decodeEntities(m[1]), pageUrl).href;
  throw new Error(`no link "${text}" on ${pageUrl}`);
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
