import type { ChatProvider, ProviderEvent, ProviderRequest } from '../../../src/providers/provider.types';

/** One model turn of a script: events to stream, optionally an error thrown after them. */
export interface ScriptedTurn {
  events: ProviderEvent[];
  failWith?: Error;
  /** Awaited before streaming (a test holds the turn open with it). */
  gate?: Promise<void>;
  /** Pause between events, in ms (abort tests). */
  delayMs?: number;
}

/**
 * A stand-in model for engine tests that need a model to misbehave on cue (fail mid-stream, hang, call a tool);
 * the real vendor wire formats are covered by the provider tests. Records every request it was sent.
 */
export class ScriptedProvider implements ChatProvider {
  readonly id = 'openai' as const;
  readonly model = 'scripted';
  readonly offline = false;
  readonly requests: ProviderRequest[] = [];
  /** Set when a request's signal aborted while this provider was streaming. */
  sawAbort = false;

  constructor(private readonly script: (call: number, request: ProviderRequest) => ScriptedTurn) {}

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const turn = this.script(this.requests.length, request);
    this.requests.push(request);
    request.signal.addEventListener('abort', () => (this.sawAbort = true), { once: true });
    if (turn.gate) await Promise.race([turn.gate, aborted(request.signal)]);
    for (const event of turn.events) {
      if (request.signal.aborted) throw abortErr();
      if (turn.delayMs)
        await Promise.race([new Promise((r) => setTimeout(r, turn.delayMs)), aborted(request.signal)]);
      if (request.signal.aborted) throw abortErr();
      yield event;
    }
    if (turn.failWith) throw turn.failWith;
  }
}

function abortErr(): Error {
  return Object.assign(new Error('aborted'), { name: 'AbortError' });
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

/** Text events for each word of `text`, then `end: stop`. */
export function says(text: string): ProviderEvent[] {
  return [
    ...(text.match(/\S+\s*/g) ?? []).map((t): ProviderEvent => ({ type: 'text', text: t })),
    { type: 'end', reason: 'stop' },
  ];
}
