// Care Consult console, conversation part: sends a turn, reads its SSE stream, draws tokens, tool chips,
// suggestion chips and the emergency banner. Loaded before console.js, which wires it to the page.
'use strict';
(function () {
  /** Builds the conversation view over the page; `ctx` gives the helpers and shared state of console.js. */
  function createConversation(ctx) {
    var $ = ctx.$;
    var el = ctx.el;
    var state = ctx.state;
    var api = ctx.api;
    var problemText = ctx.problemText;
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


    return { send: send, newThread: newThread };
  }
  globalThis.CareConversation = { createConversation: createConversation };
})();
