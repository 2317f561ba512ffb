// Incremental Server-Sent Events parser for the console (fetch streams POST responses, which EventSource
// cannot). Feed it text chunks as they arrive, cut anywhere; it calls onEvent once per complete frame.
'use strict';
(function () {
  /**
   * Creates a parser. `onEvent({event, data, id})` runs per frame; comment lines (heartbeats) are skipped.
   * Follows the EventSource rules: fields `event`, `data` (joined with newlines), `id`; blank line ends a frame.
   */
  function createSseParser(onEvent) {
    var buffer = '';
    var frame = { event: 'message', data: [], id: null };
    function dispatch() {
      if (frame.data.length) onEvent({ event: frame.event, data: frame.data.join('\n'), id: frame.id });
      frame = { event: 'message', data: [], id: null };
    }
    function line(text) {
      if (text === '') return dispatch();
      if (text.charAt(0) === ':') return;
      var colon = text.indexOf(':');
      var field = colon < 0 ? text : text.slice(0, colon);
      var value = colon < 0 ? '' : text.slice(colon + 1);
      if (value.charAt(0) === ' ') value = value.slice(1);
      if (field === 'event') frame.event = value;
      else if (field === 'data') frame.data.push(value);
      else if (field === 'id') frame.id = value;
    }
    return {
      push: function (chunk) {
        buffer += chunk;
        var match;
        var re = /\r\n|\r(?!$)|\n/g;
        var start = 0;
        while ((match = re.exec(buffer))) {
          line(buffer.slice(start, match.index));
          start = match.index + match[0].length;
        }
        buffer = buffer.slice(start);
      },
      // A frame without its closing blank line is incomplete and dropped, as EventSource does.
      end: function () {
        buffer = '';
        frame = { event: 'message', data: [], id: null };
      },
    };
  }
  globalThis.CareSse = { createSseParser: createSseParser };
})();
