// Care Consult console, conversation part: sends a turn and reads its SSE stream; draws the answer as safe
// markdown with numbered sources, the quiet tool line, suggestion chips and the emergency banner; reopens a
// stored thread from its history. Loaded before console.js, which wires it to the page.
'use strict';
(function () {
  var THREAD_KEY = 'care-console-thread';
  var R = function () {
    return globalThis.CareRender;
  };

  /** Builds the conversation view over the page; `ctx` gives the helpers and shared state of console.js. */
  function createConversation(ctx) {
    var $ = ctx.$;
    var el = ctx.el;
    var state = ctx.state;
    var api = ctx.api;
    var problemText = ctx.problemText;
    var history = [];
    var turnCount = 0;
    var awaitingSafe = false;

    function announce(text) {
      // A fresh node per announcement so screen readers read it even when the text repeats.
      var live = $('live');
      live.textContent = '';
      live.appendChild(el('p', '', text));
    }

    function setThread(id) {
      state.threadId = id;
      if (id) sessionStorage.setItem(THREAD_KEY, id);
      else sessionStorage.removeItem(THREAD_KEY);
      ctx.onThreadChanged(id);
    }

    function clearView() {
      history = [];
      $('transcript').textContent = '';
      $('suggestions').textContent = '';
      hideEmergency();
    }

    function newThread() {
      if (state.controller) state.controller.abort();
      clearView();
      setThread(null);
      $('message').focus();
    }

    function addUserTurn(text) {
      var item = el('li', 'turn user');
      item.appendChild(el('div', 'role', 'You'));
      item.appendChild(el('div', 'body', text));
      $('transcript').appendChild(item);
      return item;
    }

    /** An assistant turn: role, quiet tool line, body, sources, meta; `draw()` re-renders body and sources. */
    function addAssistantTurn() {
      var n = ++turnCount;
      var item = el('li', 'turn assistant');
      item.appendChild(el('div', 'role', 'Assistant'));
      var activity = el('details', 'activity');
      activity.hidden = true;
      var summary = el('summary', '', '');
      activity.appendChild(summary);
      var detailList = el('ul');
      activity.appendChild(detailList);
      item.appendChild(activity);
      var body = el('div', 'body');
      item.appendChild(body);
      var sourcesBox = el('div', 'sources');
      sourcesBox.hidden = true;
      item.appendChild(sourcesBox);
      var meta = el('div', 'meta muted small');
      item.appendChild(meta);
      $('transcript').appendChild(item);
      var turn = {
        item: item,
        body: body,
        meta: meta,
        text: '',
        sources: [],
        calls: [],
        prefix: 't' + n + '-src-',
      };
      var pending = 0;
      turn.draw = function () {
        if (pending) return;
        pending = requestAnimationFrame(function () {
          pending = 0;
          R().renderMarkdown(body, turn.text, turn.sources, turn.prefix);
          R().renderSources(sourcesBox, turn.sources, turn.prefix);
        });
      };
      turn.drawNow = function () {
        if (pending) cancelAnimationFrame(pending);
        pending = 0;
        R().renderMarkdown(body, turn.text, turn.sources, turn.prefix);
        R().renderSources(sourcesBox, turn.sources, turn.prefix);
      };
      turn.drawTools = function () {
        activity.hidden = !turn.calls.length;
        summary.textContent = R().toolSentence(turn.calls);
        detailList.textContent = '';
        turn.calls.forEach(function (c) {
          var li = el('li');
          li.appendChild(el('code', '', c.tool));
          var end = c.end;
          var how = !end
            ? ' running'
            : end.allowed === false
              ? ' not allowed' + (end.reason ? ': ' + end.reason : '')
              : ' ' +
                end.status +
                ', ' +
                Math.round(end.duration_ms || 0) +
                ' ms' +
                (end.bytes != null ? ', ' + end.bytes + ' bytes' : '');
          li.appendChild(document.createTextNode(how));
          detailList.appendChild(li);
        });
      };
      turn.addSources = function (data) {
        var found = R().sourcesOf(data);
        if (found.length) {
          R().mergeSources(turn.sources, found);
          turn.draw();
        }
      };
      return turn;
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

    // ---- emergency ---------------------------------------------------------------------------------------
    function composerLocked(on) {
      awaitingSafe = on;
      $('message').disabled = on;
      $('send').disabled = on || !!state.controller;
    }

    function hideEmergency() {
      $('emergency').hidden = true;
      $('emergency-safe').checked = false;
      $('emergency-continue').disabled = true;
      composerLocked(false);
    }

    /** The advice once, prominently: the banner holds it; the transcript only points at it. */
    function showEmergency(refusal, turn) {
      $('emergency-title').textContent = R().emergencyTitle(refusal);
      $('emergency-message').textContent = refusal.message;
      $('emergency').hidden = false;
      $('emergency-safe').checked = false;
      $('emergency-continue').disabled = true;
      composerLocked(true);
      turn.item.classList.add('refused');
      turn.body.textContent = 'Emergency advice is shown above. Please read it first.';
      turn.refusal = refusal;
      $('emergency-title').tabIndex = -1;
      $('emergency-title').focus();
      $('emergency').scrollIntoView({ block: 'start' });
    }

    function emergencyNote(item, body, refusal) {
      item.classList.add('refused');
      body.textContent = '';
      var details = el('details');
      details.appendChild(el('summary', '', 'Emergency advice: ' + R().emergencyTitle(refusal)));
      details.appendChild(el('p', '', refusal.message));
      body.appendChild(details);
    }

    function continueAfterEmergency() {
      if (!$('emergency-safe').checked) return;
      var turn = state.lastRefusalTurn;
      if (turn && turn.refusal) emergencyNote(turn.item, turn.body, turn.refusal);
      hideEmergency();
      $('message').focus();
    }

    function busy(on) {
      $('send').disabled = on || awaitingSafe;
      $('stop').hidden = !on;
      $('transcript').setAttribute('aria-busy', String(on));
    }

    async function send(event) {
      if (event) event.preventDefault();
      var text = $('message').value.trim();
      if (!text || state.controller || awaitingSafe) return;
      $('message').value = '';
      $('suggestions').textContent = '';
      history.push({ role: 'user', content: text });
      addUserTurn(text);
      var turn = addAssistantTurn();
      turn.item.scrollIntoView({ block: 'end' });
      var body = { messages: history.slice(), allow_clinical: $('allow-clinical').checked };
      if ($('agent-select').value) body.agent_id = $('agent-select').value;
      if (state.threadId) body.thread_id = state.threadId;
      state.controller = new AbortController();
      busy(true);
      announce('The assistant is answering.');
      turn.item.classList.add('streaming');
      var refused = false;
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
          announce(turn.body.textContent);
          history.pop();
          return;
        }
        var parser = globalThis.CareSse.createSseParser(function (frame) {
          if (frame.data === '[DONE]') return;
          var data;
          try {
            data = JSON.parse(frame.data);
          } catch {
            return;
          }
          if (frame.event === 'message') {
            if (data.thread_id && data.thread_id !== state.threadId) setThread(data.thread_id);
            if (data.agent_name)
              turn.meta.textContent = data.agent_name + (data.routed ? ' (chosen for your question)' : '');
            turn.engine =
              data.provider === 'safety'
                ? 'safety check'
                : data.offline
                  ? 'offline engine'
                  : data.provider + ' ' + data.model;
            turn.addSources(data);
          } else if (frame.event === 'token') {
            turn.text += data.content;
            turn.draw();
          } else if (frame.event === 'tool_start') {
            turn.calls.push({ tool: data.tool, end: null });
            turn.drawTools();
            turn.addSources(data);
          } else if (frame.event === 'tool_end') {
            var call = turn.calls.find(function (c) {
              return !c.end && c.tool === data.tool;
            });
            var end = {
              allowed: data.allowed,
              status: data.status,
              duration_ms: data.duration_ms,
              bytes: data.result && data.result.bytes,
              reason: data.reason,
            };
            if (call) call.end = end;
            else turn.calls.push({ tool: data.tool, end: end });
            turn.drawTools();
            turn.addSources(data);
          } else if (frame.event === 'suggestions') {
            showSuggestions(data.items || data.suggestions);
          } else if (frame.event === 'refusal') {
            refused = true;
            turn.text = data.message;
            state.lastRefusalTurn = turn;
            showEmergency(data, turn);
          } else if (frame.event === 'error') {
            turn.item.classList.add('failed');
            turn.item.appendChild(el('div', 'error', data.message));
          } else if (frame.event === 'done') {
            turn.addSources(data);
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
        if (!refused) turn.drawNow();
        if (turn.text) history.push({ role: 'assistant', content: turn.text });
        if (turn.engine) turn.item.querySelector('.activity').dataset.engine = turn.engine;
        if (!refused)
          announce(turn.text ? 'Answer: ' + turn.body.textContent : 'The answer ended without text.');
      } catch (e) {
        if (e.name !== 'AbortError')
          turn.item.appendChild(el('div', 'error', 'The answer was interrupted. Please try again.'));
        else turn.item.appendChild(el('div', 'muted small', 'Stopped.'));
      } finally {
        turn.item.classList.remove('streaming');
        state.controller = null;
        busy(false);
        if (ctx.onTurnDone) ctx.onTurnDone();
      }
    }

    /** Draws one stored checkpoint (its last question and its answer). */
    function drawCheckpoint(cp) {
      var messages = Array.isArray(cp.messages) ? cp.messages : [];
      var last = messages[messages.length - 1];
      var question = messages
        .slice()
        .reverse()
        .find(function (m) {
          return m.role === 'user';
        });
      if (question) {
        addUserTurn(question.content);
        history.push({ role: 'user', content: question.content });
      }
      var turn = addAssistantTurn();
      (cp.tool_calls || []).forEach(function (c) {
        turn.calls.push({
          tool: c.tool,
          end: {
            allowed: c.allowed,
            status: c.status,
            duration_ms: c.duration_ms,
            bytes: c.bytes,
            reason: c.reason,
          },
        });
      });
      turn.drawTools();
      turn.addSources(cp);
      if (cp.refusal) {
        emergencyNote(turn.item, turn.body, cp.refusal);
        history.push({ role: 'assistant', content: cp.refusal.message });
        return;
      }
      if (last && last.role === 'assistant') {
        turn.text = last.content;
        history.push({ role: 'assistant', content: last.content });
      }
      turn.drawNow();
      if (!turn.text)
        turn.body.appendChild(el('span', 'muted small', cp.status === 'aborted' ? 'Stopped.' : 'No answer.'));
      if (cp.error) turn.item.appendChild(el('div', 'error', cp.error.message));
    }

    /** Reopens a stored thread with its whole history; false when it is gone (or not the caller's). */
    async function openThread(id) {
      if (state.controller) state.controller.abort();
      var checkpoints = [];
      var cursor = null;
      do {
        var res = await api(
          '/chat/threads/' +
            encodeURIComponent(id) +
            '?limit=100' +
            (cursor ? '&cursor=' + encodeURIComponent(cursor) : ''),
        );
        if (!res.ok) {
          if (res.status === 404 && state.threadId === id) setThread(null);
          return false;
        }
        var page = await res.json();
        checkpoints = checkpoints.concat(page.checkpoints);
        cursor = page.next_cursor;
      } while (cursor);
      clearView();
      checkpoints.reverse().forEach(drawCheckpoint);
      var newest = checkpoints[checkpoints.length - 1];
      if (newest) showSuggestions(newest.suggestions);
      setThread(id);
      announce(
        'Conversation reopened with ' +
          checkpoints.length +
          (checkpoints.length === 1 ? ' answer.' : ' answers.'),
      );
      return true;
    }

    function savedThread() {
      return sessionStorage.getItem(THREAD_KEY);
    }

    return {
      send: send,
      newThread: newThread,
      openThread: openThread,
      savedThread: savedThread,
      continueAfterEmergency: continueAfterEmergency,
      reset: clearView,
    };
  }
  globalThis.CareConversation = { createConversation: createConversation };
})();
