// Care Consult console: sign in (token or email and password), keep the session, pick a specialist, list and
// reopen conversations, and wire the conversation (console-chat.js) to the page. Plain browser JavaScript, no
// build step. Text from the server is inserted as text; model markdown only through console-render.js.
'use strict';
(function () {
  var state = {
    threadId: null,
    agents: [],
    controller: null,
    lastRefusalTurn: null,
    config: { authUrl: null, apiBase: '/api' },
  };
  var $ = function (id) {
    return document.getElementById(id);
  };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  async function problemText(res) {
    if (res.status === 401) return 'You are signed out. Please sign in again.';
    try {
      var body = await res.json();
      return (body.title || 'Error') + (body.detail ? ': ' + body.detail : '') + ' (' + res.status + ')';
    } catch {
      return 'Request failed (' + res.status + ')';
    }
  }

  var session = globalThis.CareSession.createSession({
    apiBase: '/api',
    onEnded: function (reason) {
      showSignedOut(reason);
    },
    onRenewed: function (claims) {
      showWho(claims);
    },
  });
  var api = function (path, init) {
    return session.api(path, init);
  };

  // ---- sign in -------------------------------------------------------------------------------------------
  function showSignInError(text) {
    $('sign-in-error').textContent = text;
    $('sign-in-error').hidden = !text;
  }

  function showWho(claims) {
    $('who').textContent =
      'Signed in as ' +
      (claims.email || claims.sub || 'you') +
      (claims.tenantId ? ' \u00b7 tenant ' + claims.tenantId : '');
  }

  /** Back to the sign-in card; `reason` (when the session ended by itself) is shown on it. */
  function showSignedOut(reason) {
    if (state.controller) state.controller.abort();
    conversation.reset();
    sessionStorage.removeItem('care-console-thread');
    state.threadId = null;
    $('threads').textContent = '';
    $('who').textContent = 'Not signed in';
    $('sign-out').hidden = true;
    $('workspace').hidden = true;
    $('sign-in').hidden = false;
    $('session-ended').textContent = reason || '';
    $('session-ended').hidden = !reason;
    showSignInError('');
    var first = $('tab-password').getAttribute('aria-selected') === 'true' ? $('email') : $('token-input');
    first.focus();
  }

  /** Starts a session with a token (and platform-auth's refresh token when signed in by password). */
  async function begin(token, refreshToken, authUrl, opts) {
    opts = opts || {};
    var claims;
    try {
      claims = session.use((token || '').trim(), refreshToken, authUrl);
    } catch (e) {
      return showSignInError(e.message);
    }
    var res = await api('/agents?limit=100').catch(function () {
      return null;
    });
    if (!res || !res.ok) {
      var text = res ? await problemText(res) : 'The service cannot be reached.';
      if (res && res.status === 401)
        text = 'This token was not accepted (it may have expired). Please sign in again.';
      session.end('');
      return showSignInError(text);
    }
    // A short-lived token can expire while the service is asked: the session's end has then already put the
    // sign-in card back with its reason, and the workspace must not open over it.
    if (!session.claims()) return;
    showSignInError('');
    $('session-ended').hidden = true;
    showWho(session.claims() || claims);
    $('sign-out').hidden = false;
    $('sign-in').hidden = true;
    $('workspace').hidden = false;
    fillAgents((await res.json()).agents || []);
    var saved = opts.restoreThread ? conversation.savedThread() : null;
    if (saved) await conversation.openThread(saved);
    else conversation.reset();
    if (!session.claims()) return;
    await loadThreads();
    if (session.claims()) $('message').focus();
  }

  async function signInWithPassword(event) {
    event.preventDefault();
    var base = $('auth-url').value.replace(/\/+$/, '');
    var res;
    try {
      res = await fetch(base + '/api/v1/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: $('email').value, password: $('password').value }),
      });
    } catch {
      return showSignInError('platform-auth cannot be reached at ' + base);
    }
    if (!res.ok)
      return showSignInError(
        res.status === 401 ? 'The email or password is not right.' : await problemText(res),
      );
    var body = await res.json();
    $('password').value = '';
    await begin(body.idToken, body.refreshToken, base);
  }

  async function signOut() {
    if (state.controller) state.controller.abort();
    await session.signOut();
    showSignedOut('You are signed out.');
  }

  function selectTab(which) {
    var token = which === 'token';
    $('tab-token').setAttribute('aria-selected', String(token));
    $('tab-password').setAttribute('aria-selected', String(!token));
    $('tab-token').tabIndex = token ? 0 : -1;
    $('tab-password').tabIndex = token ? -1 : 0;
    $('pane-token').hidden = !token;
    $('pane-password').hidden = token;
  }

  // ---- agents --------------------------------------------------------------------------------------------
  function fillAgents(agents) {
    state.agents = agents;
    var select = $('agent-select');
    while (select.options.length > 1) select.remove(1);
    select.querySelectorAll('optgroup').forEach(function (g) {
      g.remove();
    });
    var byDomain = {};
    agents.forEach(function (a) {
      (byDomain[a.domain] = byDomain[a.domain] || []).push(a);
    });
    Object.keys(byDomain)
      .sort()
      .forEach(function (domain) {
        var group = document.createElement('optgroup');
        group.label = domain;
        byDomain[domain].forEach(function (a) {
          group.appendChild(new Option(a.name + (a.clinical ? ' (clinical)' : ''), a.id));
        });
        select.appendChild(group);
      });
    describeAgent();
  }

  function describeAgent() {
    var id = $('agent-select').value;
    var agent = state.agents.find(function (a) {
      return a.id === id;
    });
    $('agent-description').textContent = agent
      ? agent.description
      : 'The router picks a specialist from the catalog for each question.';
  }

  // ---- threads -------------------------------------------------------------------------------------------
  function when(iso) {
    var d = new Date(iso);
    return isNaN(d) ? '' : d.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
  }

  async function loadThreads() {
    var res = await api('/chat/threads?limit=50').catch(function () {
      return null;
    });
    if (!res || !res.ok) return;
    var threads = (await res.json()).threads || [];
    if (!session.claims()) return; // signed out meanwhile: the list stays empty
    var list = $('threads');
    list.textContent = '';
    $('threads-empty').hidden = threads.length > 0;
    threads.forEach(function (t) {
      var li = el('li');
      var button = el('button');
      button.type = 'button';
      button.dataset.threadId = t.thread_id;
      button.appendChild(el('span', 'thread-title', t.title || 'Conversation'));
      button.appendChild(el('span', 'thread-when', when(t.updated_at)));
      button.setAttribute('aria-current', String(t.thread_id === state.threadId));
      button.addEventListener('click', async function () {
        if (await conversation.openThread(t.thread_id)) $('message').focus();
      });
      li.appendChild(button);
      list.appendChild(li);
    });
  }

  function markCurrent(id) {
    $('threads')
      .querySelectorAll('button[data-thread-id]')
      .forEach(function (b) {
        b.setAttribute('aria-current', String(b.dataset.threadId === id));
      });
  }

  // ---- start ---------------------------------------------------------------------------------------------
  var conversation = globalThis.CareConversation.createConversation({
    $: $,
    el: el,
    state: state,
    api: api,
    problemText: problemText,
    onThreadChanged: markCurrent,
    onTurnDone: function () {
      if (!$('workspace').hidden) loadThreads();
    },
  });

  document.addEventListener('DOMContentLoaded', async function () {
    try {
      var res = await fetch('/console/config.json');
      if (res.ok) state.config = Object.assign(state.config, await res.json());
    } catch {
      /* defaults stay */
    }
    $('auth-url').value = state.config.authUrl || '';
    $('tab-token').addEventListener('click', function () {
      selectTab('token');
    });
    $('tab-password').addEventListener('click', function () {
      selectTab('password');
    });
    document.querySelector('[role=tablist]').addEventListener('keydown', function (e) {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      var next = $('tab-token').getAttribute('aria-selected') === 'true' ? 'password' : 'token';
      selectTab(next);
      $('tab-' + next).focus();
    });
    $('pane-token').addEventListener('submit', function (e) {
      e.preventDefault();
      begin($('token-input').value, null, null);
    });
    $('pane-password').addEventListener('submit', signInWithPassword);
    $('sign-out').addEventListener('click', signOut);
    $('agent-select').addEventListener('change', describeAgent);
    $('new-thread').addEventListener('click', conversation.newThread);
    $('composer').addEventListener('submit', conversation.send);
    $('message').addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && !e.shiftKey) conversation.send(e);
    });
    $('stop').addEventListener('click', function () {
      if (state.controller) state.controller.abort();
    });
    $('emergency-safe').addEventListener('change', function () {
      $('emergency-continue').disabled = !$('emergency-safe').checked;
    });
    $('emergency-continue').addEventListener('click', conversation.continueAfterEmergency);
    var saved = session.restore();
    if (saved) begin(saved.token, saved.refreshToken, saved.authUrl, { restoreThread: true });
  });
})();
