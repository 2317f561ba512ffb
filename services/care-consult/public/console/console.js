// Care Consult console: sign in, pick a specialist, stream a consultation (POST /api/chat as SSE over fetch).
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

  // ---- conversation --------------------------------------------------------------------------------------
  var history = [];

  function newThread() {
    if (state.controller) state.controller.abort();
    history = [];
    state.threadId = null;
    $('thread-id').textContent = 'new';
    $('transcript').textContent = '';
    $('suggestions').textContent = '';
    $('emergency').hidden = true;
  }

  function addTurn(role, text) {
    var item = el('li', 'turn ' + role);
    item.appendChild(el('div', 'role', role === 'user' ? 'You' : 'Assistant'));
    var body = el('div', 'body', text || '');
    item.appendChild(body);
    $('transcript').appendChild(item);
    item.scrollIntoView({ block: 'end' });
    return { item: item, body: body };
  }

  function toolChip(container, start) {
    var chip = el('div', 'tool running');
    chip.appendChild(el('span', 'tool-name', start.tool));
    var status = el('span', 'tool-status', 'running\u2026');
    chip.appendChild(status);
    chip.title = JSON.stringify(start.params);
    container.appendChild(chip);
    return function finish(end) {
      chip.className = 'tool ' + (end.allowed ? (end.status === 'success' ? 'ok' : 'failed') : 'denied');
      var bytes = end.result && typeof end.result.bytes === 'number' ? ' \u00b7 ' + end.result.bytes + ' B' : '';
      status.textContent = (end.allowed ? end.status : 'not allowed') + ' \u00b7 ' + Math.round(end.duration_ms) + ' ms' + bytes;
    };
  }

  function showSuggestions(items) {
    var box = $('suggestions');
    box.textContent = '';
    (items || []).forEach(function (text) {
      var chip = el('button', 'suggestion', text);
      chip.type = 'button';
      chip.addEventListener('click', function () {
        $('message').value = text;
        send();
      });
      box.appendChild(chip);
    });
  }

  function showEmergency(refusal) {
    $('emergency-message').textContent = refusal.message;
    $('emergency-category').textContent = 'Safety check: ' + refusal.category.replace(/_/g, ' ');
    $('emergency').hidden = false;
    $('emergency').scrollIntoView({ block: 'start' });
  }

  function busy(on) {
    $('send').disabled = on;
    $('stop').hidden = !on;
  }

  async function send(event) {
    if (event) event.preventDefault();
    var text = $('message').value.trim();
    if (!text || state.controller) return;
    $('message').value = '';
    $('suggestions').textContent = '';
    $('emergency').hidden = true;
    history.push({ role: 'user', content: text });
    addTurn('user', text);
    var turn = addTurn('assistant', '');
    var tools = el('div', 'tools');
    turn.item.insertBefore(tools, turn.body);
    var meta = el('div', 'meta muted small');
    turn.item.appendChild(meta);
    var reply = '';
    var pending = [];
    var body = { messages: history.slice(), allow_clinical: $('allow-clinical').checked };
    if ($('agent-select').value) body.agent_id = $('agent-select').value;
    if (state.threadId) body.thread_id = state.threadId;
    state.controller = new AbortController();
    busy(true);
    turn.item.classList.add('streaming');
    try {
      var res = await api('/chat', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(body),
        signal: state.controller.signal,
      });
      if (!res.ok) {
        turn.body.textContent = await problemText(res);
        turn.item.classList.add('failed');
        history.pop();
        return;
      }
      var parser = globalThis.CareSse.createSseParser(function (frame) {
        if (frame.data === '[DONE]') return;
        var data = JSON.parse(frame.data);
        if (frame.event === 'message') {
          state.threadId = data.thread_id;
          $('thread-id').textContent = data.thread_id;
          var engine = data.provider === 'safety' ? 'safety check, no model called' : data.offline ? 'offline engine' : data.provider + ' \u00b7 ' + data.model;
          meta.textContent = (data.agent_name || 'Safety check') + (data.routed ? ' (chosen by the router)' : '') + ' \u00b7 ' + engine;
        } else if (frame.event === 'token') {
          reply += data.content;
          turn.body.textContent = reply;
        } else if (frame.event === 'tool_start') {
          pending.push(toolChip(tools, data));
        } else if (frame.event === 'tool_end') {
          var finish = pending.shift();
          if (finish) finish(data);
        } else if (frame.event === 'suggestions') {
          showSuggestions(data.items || data.suggestions);
        } else if (frame.event === 'refusal') {
          reply = data.message;
          turn.body.textContent = data.message;
          turn.item.classList.add('refused');
          showEmergency(data);
        } else if (frame.event === 'error') {
          turn.item.classList.add('failed');
          turn.item.appendChild(el('div', 'error', data.message + ' (' + data.code + ')'));
        }
      });
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      for (;;) {
        var chunk = await reader.read();
        if (chunk.done) break;
        parser.push(decoder.decode(chunk.value, { stream: true }));
      }
      parser.end();
      if (reply) history.push({ role: 'assistant', content: reply });
    } catch (e) {
      if (e.name !== 'AbortError') turn.item.appendChild(el('div', 'error', 'The stream was interrupted.'));
      else turn.item.appendChild(el('div', 'muted small', 'Stopped.'));
    } finally {
      turn.item.classList.remove('streaming');
      state.controller = null;
      busy(false);
    }
  }

  // ---- start ---------------------------------------------------------------------------------------------
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
