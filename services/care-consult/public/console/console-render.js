// Care Consult console, rendering part: the model's markdown as safe HTML (marked, then DOMPurify), numbered
// citation links, the plain-language tool line and plain words for emergency categories. No network, no state.
'use strict';
(function () {
  // Raw HTML written by the model is shown as text, never parsed: marked hands it to this renderer as `html`.
  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  var markdown = new globalThis.marked.Marked({
    gfm: true,
    breaks: true,
    renderer: {
      html: function (token) {
        return escapeHtml(token.text);
      },
    },
  });

  // What survives sanitising: text structure and links, nothing that runs, loads or styles.
  var PURIFY = {
    ALLOWED_TAGS: [
      'p',
      'br',
      'strong',
      'em',
      'del',
      'ul',
      'ol',
      'li',
      'blockquote',
      'code',
      'pre',
      'a',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'hr',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
    ],
    ALLOWED_ATTR: ['href', 'title', 'start'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  };
  globalThis.DOMPurify.addHook('afterSanitizeAttributes', function (node) {
    if (node.tagName === 'A') {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });

  function safeUrl(url) {
    if (typeof url !== 'string') return null;
    try {
      var parsed = new URL(url, location.href);
      return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
    } catch {
      return null;
    }
  }

  /**
   * Sources from any event, in any of the shapes a grounded answer may use: an array under `sources` or
   * `citations` (also inside `result` of a tool event), each a URL string or an object with a URL
   * (`url`/`href`/`link`/`uri`), a title (`title`/`name`/`label`/`source`) and a number (`n`/`index`/`number`/`id`).
   * Returns [{n, title, url}] (url null when absent or not http(s)).
   */
  function sourcesOf(data) {
    if (!data || typeof data !== 'object') return [];
    var list =
      data.sources || data.citations || (data.result && (data.result.sources || data.result.citations));
    if (!Array.isArray(list)) return [];
    return list
      .map(function (item, i) {
        if (typeof item === 'string') return { n: i + 1, title: item, url: safeUrl(item) };
        if (!item || typeof item !== 'object') return null;
        var rawN = [item.n, item.index, item.number, item.id].find(function (v) {
          return (typeof v === 'number' || (typeof v === 'string' && /^\d{1,3}$/.test(v))) && Number(v) > 0;
        });
        var url = safeUrl(item.url || item.href || item.link || item.uri);
        var title =
          item.title || item.name || item.label || item.source || url || 'Source ' + (rawN || i + 1);
        return { n: rawN !== undefined ? Number(rawN) : i + 1, title: String(title), url: url };
      })
      .filter(Boolean);
  }

  /** Adds sources to a list keyed by number (a later source with the same number replaces the earlier). */
  function mergeSources(into, more) {
    more.forEach(function (s) {
      var at = into.findIndex(function (x) {
        return x.n === s.n;
      });
      if (at >= 0) into[at] = s;
      else into.push(s);
    });
    into.sort(function (a, b) {
      return a.n - b.n;
    });
    return into;
  }

  // `[3]` (or `[1, 2]`) in text outside links and code becomes numbered links to the sources.
  function linkMarkers(root, sources, idPrefix) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        return node.parentElement.closest('a, code, pre')
          ? NodeFilter.FILTER_REJECT
          : NodeFilter.FILTER_ACCEPT;
      },
    });
    var nodes = [];
    while (walker.nextNode())
      if (/\[\d{1,3}(?:\s*,\s*\d{1,3})*\]/.test(walker.currentNode.nodeValue)) nodes.push(walker.currentNode);
    nodes.forEach(function (node) {
      var parts = node.nodeValue.split(/(\[\d{1,3}(?:\s*,\s*\d{1,3})*\])/);
      var frag = document.createDocumentFragment();
      parts.forEach(function (part, i) {
        if (i % 2 === 0) {
          if (part) frag.appendChild(document.createTextNode(part));
          return;
        }
        part
          .slice(1, -1)
          .split(',')
          .forEach(function (num) {
            var n = Number(num.trim());
            var source = sources.find(function (s) {
              return s.n === n;
            });
            var sup = document.createElement('sup');
            sup.className = 'cite';
            if (source) {
              var a = document.createElement('a');
              a.href = source.url || '#' + idPrefix + n;
              if (source.url) {
                a.target = '_blank';
                a.rel = 'noopener noreferrer nofollow';
              }
              a.textContent = '[' + n + ']';
              a.setAttribute('aria-label', 'Source ' + n + ': ' + source.title);
              sup.appendChild(a);
            } else {
              sup.textContent = '[' + n + ']';
            }
            frag.appendChild(sup);
          });
      });
      node.parentNode.replaceChild(frag, node);
    });
  }

  /** Renders markdown into `target` safely, then links `[n]` markers to `sources`. */
  function renderMarkdown(target, text, sources, idPrefix) {
    var html = markdown.parse(String(text || ''));
    target.innerHTML = globalThis.DOMPurify.sanitize(html, PURIFY);
    linkMarkers(target, sources || [], idPrefix || 'src-');
  }

  /** The numbered source list under an answer (replaces `box`'s content; hidden when empty). */
  function renderSources(box, sources, idPrefix) {
    box.textContent = '';
    box.hidden = !sources.length;
    if (!sources.length) return;
    var heading = document.createElement('div');
    heading.className = 'sources-title';
    heading.textContent = 'Sources';
    box.appendChild(heading);
    var list = document.createElement('ol');
    sources.forEach(function (s) {
      var li = document.createElement('li');
      li.id = (idPrefix || 'src-') + s.n;
      li.value = s.n;
      if (s.url) {
        var a = document.createElement('a');
        a.href = s.url;
        a.target = '_blank';
        a.rel = 'noopener noreferrer nofollow';
        a.textContent = s.title;
        li.appendChild(a);
      } else {
        li.textContent = s.title;
      }
      list.appendChild(li);
    });
    box.appendChild(list);
  }

  // What each tool does, in the words a patient would use.
  var TOOL_WORDS = {
    read_skill_reference: 'checked reference material',
    search_catalog: 'looked for the right specialist',
    recall_memory: 'looked in your notes',
    save_memory: 'saved a note for next time',
  };

  /** One plain line for a turn's tool activity, e.g. "Looked in your notes and checked reference material." */
  function toolSentence(calls) {
    var phrases = [];
    var denied = false;
    calls.forEach(function (c) {
      if (c.end && c.end.allowed === false) {
        denied = true;
        return;
      }
      var words = TOOL_WORDS[c.tool] || 'used a helper tool';
      if (phrases.indexOf(words) < 0) phrases.push(words);
    });
    var text = phrases.length
      ? phrases.slice(0, -1).join(', ') + (phrases.length > 1 ? ' and ' : '') + phrases[phrases.length - 1]
      : '';
    if (denied)
      text += (text ? '; ' : '') + 'skipped clinical reference material because clinical information is off';
    if (!text) text = 'working on it';
    return text.charAt(0).toUpperCase() + text.slice(1) + '.';
  }

  // Plain words for the emergency categories of the safety check, used only when the refusal event carries no
  // human-readable title of its own.
  var CATEGORY_WORDS = {
    stroke_fast: 'Possible stroke',
    heart_attack: 'Possible heart attack',
    breathing_difficulty: 'Serious difficulty breathing',
    anaphylaxis: 'Possible severe allergic reaction',
    severe_bleeding: 'Severe bleeding',
    suicidal_intent: 'You may be in danger',
    self_harm: 'You may be in danger',
    overdose_poisoning: 'Possible overdose or poisoning',
    sepsis: 'Possible sepsis',
    meningitis: 'Possible meningitis',
    seizure: 'Seizure',
    pregnancy_emergency: 'Possible pregnancy emergency',
    child_emergency: 'A child may need urgent help',
    unresponsive: 'Someone is not responding',
  };

  /** The headline of an emergency refusal: the event's own title if it has one, else plain words. */
  function emergencyTitle(refusal) {
    var own = refusal.title || refusal.category_label || refusal.label || refusal.headline;
    if (typeof own === 'string' && own.trim()) return own.trim();
    return CATEGORY_WORDS[refusal.category] || 'This may be an emergency';
  }

  globalThis.CareRender = {
    renderMarkdown: renderMarkdown,
    renderSources: renderSources,
    sourcesOf: sourcesOf,
    mergeSources: mergeSources,
    toolSentence: toolSentence,
    emergencyTitle: emergencyTitle,
  };
})();
