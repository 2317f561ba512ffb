// Care Consult console: sign in, pick a specialist, and wire the conversation (console-chat.js) to the page.
// Plain browser JavaScript, no build step. Text from the server is always inserted as text, never as HTML.
'use strict';
(function () {
  var TOKEN_KEY = 'care-console-token';
  var state = { token: null, threadId: null, agents: [], controller: null, config: { authUrl: null, apiBase: '/api' } };
  var $ = function (id) {
    return document.getElementById(id);
  };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function decodeClaims(token) {
    try {
      var part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      return JSON.parse(atob(part + '==='.slice((part.length + 3) % 4)));
    } catch {
      return null;
    }
  }

  function api(path, init) {
    init = init || {};
    init.headers = Object.assign({ Authorization: 'Bearer ' + state.token }, init.headers || {});
    return fetch(state.config.apiBase + path, init);
  }

  async function problemText(res) {
    try {
      var body = await res.json();
      return (body.title || 'Error') + (body.detail ? ': ' + body.detail : '') + ' (' + res.status + ')';
    } catch {
      return 'Request failed (' + res.status + ')';
    }
  }

  // ---- sign in -------------------------------------------------------------------------------------------
  function showSignInError(text) {
    $('sign-in-error').textContent = text;
    $('sign-in-error').hidden = !text;
  }

  async function useToken(token) {
    token = (token || '').trim();
    var claims = decodeClaims(token);
    if (!claims) return showSignInError('That does not look like a JWT.');
    state.token = token;
    var res = await api('/agents?limit=100').catch(function () {
      return null;
    });
    if (!res || !res.ok) {
      state.token = null;
      return showSignInError(res ? await problemText(res) : 'The service cannot be reached.');
    }
    sessionStorage.setItem(TOKEN_KEY, token);
    showSignInError('');
    $('who').textContent = (claims.email || claims.sub || 'signed in') + (claims.tenantId ? ' \u00b7 tenant ' + claims.tenantId : '');
    $('sign-out').hidden = false;
    $('sign-in').hidden = true;
    $('workspace').hidden = false;
    fillAgents((await res.json()).agents || []);
    $('message').focus();
  }

  async function signInWithPassword(event) {
    event.preventDefault();
    var base = $('auth-url').value.replace(/\/+$/, '');
    try {
      var res = await fetch(base + '/api/v1/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: $('email').value, password: $('password').value }),
      });
      if (!res.ok) return showSignInError(await problemText(res));
      var body = await res.json();
      $('password').value = '';
      await useToken(body.idToken);
    } catch {
      showSignInError('platform-auth cannot be reached at ' + base);
    }
  }

  function signOut() {
    if (state.controller) state.controller.abort();
    sessionStorage.removeItem(TOKEN_KEY);
    state.token = null;
    $('who').textContent = 'Not signed in';
    $('sign-out').hidden = true;
    $('workspace').hidden = true;
    $('sign-in').hidden = false;
  }

  function selectTab(which) {
    var token = which === 'token';
    $('tab-token').setAttribute('aria-selected', String(token));
    $('tab-password').setAttribute('aria-selected', String(!token));
    $('pane-token').hidden = !token;
    $('pane-password').hidden = token;
  }

  // ---- agents --------------------------------------------------------------------------------------------
  function fillAgents(agents) {
    state.agents = agents;
    var select = $('agent-select');
    while (select.options.length > 1) select.remove(1);
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
          var option = new Option(a.name + (a.clinical ? ' (clinical)' : ''), a.id);
          group.appendChild(option);
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
    $('agent-description').textContent = agent ? agent.description : 'The router picks a specialist from the catalog for each question.';
  }

  // ---- start ---------------------------------------------------------------------------------------------
  var conversation = globalThis.CareConversation.createConversation({ $: $, el: el, state: state, api: api, problemText: problemText });
  var send = conversation.send;
  var newThread = conversation.newThread;

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
    $('pane-token').addEventListener('submit', function (e) {
      e.preventDefault();
      useToken($('token-input').value);
    });
    $('pane-password').addEventListener('submit', signInWithPassword);
    $('sign-out').addEventListener('click', signOut);
    $('agent-select').addEventListener('change', describeAgent);
    $('new-thread').addEventListener('click', newThread);
    $('composer').addEventListener('submit', send);
    $('message').addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && !e.shiftKey) send(e);
    });
    $('stop').addEventListener('click', function () {
      if (state.controller) state.controller.abort();
    });
    var saved = sessionStorage.getItem(TOKEN_KEY);
    if (saved) useToken(saved);
  });
})();
