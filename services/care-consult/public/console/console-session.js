// Care Consult console, session part: keeps the access token fresh with platform-auth's refresh token, retries
// a call once after a 401 with a refreshed token, revokes the refresh token on sign-out, and reports when the
// session cannot be kept (the page then asks the person to sign in again). Tokens live in sessionStorage only.
'use strict';
(function () {
  var STORE_KEY = 'care-console-session';

  function decodeClaims(token) {
    try {
      var part = String(token).split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      return JSON.parse(atob(part + '==='.slice((part.length + 3) % 4)));
    } catch {
      return null;
    }
  }

  /**
   * `opts.apiBase`: where care-consult's API is. `opts.onEnded(reason)`: the session is over and cannot be
   * renewed. `opts.onRenewed(claims)`: a new access token is in use. `opts.now()` for tests of timing.
   */
  function createSession(opts) {
    var current = null; // { token, refreshToken, authUrl, claims }
    var timer = null;
    var refreshing = null;

    function save() {
      if (current)
        sessionStorage.setItem(
          STORE_KEY,
          JSON.stringify({
            token: current.token,
            refreshToken: current.refreshToken,
            authUrl: current.authUrl,
          }),
        );
      else sessionStorage.removeItem(STORE_KEY);
    }

    function schedule() {
      clearTimeout(timer);
      timer = null;
      if (!current || !current.claims || typeof current.claims.exp !== 'number') return;
      var now = Date.now() / 1000;
      var lifetime = typeof current.claims.iat === 'number' ? current.claims.exp - current.claims.iat : 900;
      // Renew a minute before expiry, or after three quarters of a short lifetime.
      var margin = Math.min(60, lifetime / 4);
      var wait = Math.max(0, (current.claims.exp - margin - now) * 1000);
      timer = setTimeout(
        function () {
          if (current && current.refreshToken) refresh().catch(function () {});
          else end('Your session has ended. Please sign in again.');
        },
        Math.min(wait, 2147483000),
      );
    }

    function end(reason) {
      clearTimeout(timer);
      timer = null;
      var was = current;
      current = null;
      save();
      if (was) opts.onEnded(reason);
    }

    /** Uses a token (pair); `authUrl` is the platform-auth that issued the refresh token. */
    function use(token, refreshToken, authUrl) {
      var claims = decodeClaims(token);
      if (!claims) throw new Error('That does not look like a token from platform-auth (a JWT).');
      current = {
        token: token,
        refreshToken: refreshToken || null,
        authUrl: authUrl || null,
        claims: claims,
      };
      save();
      schedule();
      return claims;
    }

    /** Renews the access token once (concurrent callers share the call); ends the session when refused. */
    function refresh() {
      if (refreshing) return refreshing;
      var s = current;
      if (!s || !s.refreshToken || !s.authUrl) {
        end('Your session has ended. Please sign in again.');
        return Promise.reject(new Error('no refresh token'));
      }
      refreshing = fetch(s.authUrl + '/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refreshToken: s.refreshToken }),
      })
        .then(async function (res) {
          if (!res.ok) throw new Error('refresh refused (' + res.status + ')');
          var pair = await res.json();
          if (current !== s) throw new Error('signed out meanwhile');
          var claims = use(pair.idToken, pair.refreshToken, s.authUrl);
          opts.onRenewed(claims);
          return claims;
        })
        .catch(function (err) {
          if (current === s) end('Your session has ended and could not be renewed. Please sign in again.');
          throw err;
        })
        .finally(function () {
          refreshing = null;
        });
      return refreshing;
    }

    /** fetch against care-consult's API with the token; after a 401 renews once and retries. */
    async function api(path, init) {
      init = init || {};
      function call() {
        var headers = Object.assign({}, init.headers || {}, {
          Authorization: 'Bearer ' + (current ? current.token : ''),
        });
        return fetch(opts.apiBase + path, Object.assign({}, init, { headers: headers }));
      }
      var res = await call();
      if (res.status !== 401 || !current) return res;
      if (!current.refreshToken) {
        end('Your session has ended. Please sign in again.');
        return res;
      }
      try {
        await refresh();
      } catch {
        return res;
      }
      return call();
    }

    /** Revokes the refresh token at platform-auth (best effort) and forgets the session. */
    async function signOut() {
      var s = current;
      clearTimeout(timer);
      current = null;
      save();
      if (s && s.refreshToken && s.authUrl) {
        try {
          await fetch(s.authUrl + '/api/v1/auth/logout', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ refreshToken: s.refreshToken }),
            keepalive: true,
          });
        } catch {
          /* the token expires on its own; nothing else to do */
        }
      }
    }

    /** The session saved in this tab (survives a reload), or null. */
    function restore() {
      try {
        var saved = JSON.parse(sessionStorage.getItem(STORE_KEY) || 'null');
        return saved && saved.token ? saved : null;
      } catch {
        return null;
      }
    }

    return {
      use: use,
      api: api,
      refresh: refresh,
      signOut: signOut,
      restore: restore,
      end: end,
      claims: function () {
        return current ? current.claims : null;
      },
    };
  }

  globalThis.CareSession = { createSession: createSession, decodeClaims: decodeClaims };
})();
