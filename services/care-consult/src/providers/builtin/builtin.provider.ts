import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { abortError } from '../provider.errors';
import type { ChatProvider, ProviderEvent, ProviderMessage, ProviderRequest } from '../provider.types';
import type { SkillLibrary, SkillReference } from '../skill-library';
import { Bm25Index, splitPassages, type Passage } from './retrieval';
import {
  composeAnswer,
  composeGroundedAnswer,
  toTokens,
  type AnswerSource,
  type MissingReason,
} from './builtin.answer';

/** Name of the tool the engine asks for to read a skill reference (the tool registry's name). */
const READ_REFERENCE_TOOL = 'read_skill_reference';

/** Settings of the built-in engine. */
export interface BuiltinProviderOptions {
  library: SkillLibrary;
  /** Model id reported in events and /api/models. */
  model?: string;
  /** Tokens sent before yielding to the event loop, so many concurrent streams progress together. */
  tokensPerTick?: number;
  /** Pause between tokens, for a typing pace like a hosted model's (0: as fast as the socket takes them). */
  tokenDelayMs?: number;
}

/**
 * The offline engine: no network and no weights. First turn: it retrieves (BM25) the reference document of the
 * agent's skills that best matches the question and asks for it through the read tool, so policy and tool
 * events apply as for any model. Second turn: it answers with the best passages of what the tool returned,
 * streamed word by word. Without the read tool it answers from the SKILL.md bodies.
 */
export class BuiltinProvider implements ChatProvider {
  readonly id = 'offline' as const;
  readonly model: string;
  readonly offline = true;
  private readonly library: SkillLibrary;
  private readonly tokensPerTick: number;
  private readonly tokenDelayMs: number;
  private readonly indexes = new Map<string, Promise<Bm25Index<SkillReference>>>();

  constructor(options: BuiltinProviderOptions) {
    this.library = options.library;
    this.model = options.model ?? 'care-offline-skills';
    this.tokensPerTick = options.tokensPerTick ?? 16;
    this.tokenDelayMs = options.tokenDelayMs ?? 0;
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const { signal } = request;
    if (signal.aborted) throw abortError(signal);
    const lastUser = findLastIndex(request.messages, (m) => m.role === 'user');
    const question = lastUser >= 0 ? request.messages[lastUser].content : '';
    const results = request.messages
      .slice(lastUser + 1)
      .filter((m) => m.role === 'tool' && m.toolName === READ_REFERENCE_TOOL);
    const canRead = request.tools.some((t) => t.name === READ_REFERENCE_TOOL);
    if (!results.length && canRead) {
      const pick = await this.pickReference(request.agent.skills, question);
      if (pick) {
        yield {
          type: 'tool_call',
          call: {
            id: `builtin_${pick.skill}_${pick.reference}`,
            name: READ_REFERENCE_TOOL,
            arguments: { skill: pick.skill, reference: pick.reference },
          },
        };
        yield { type: 'end', reason: 'tool_calls' };
        return;
      }
    }
    const text = await this.answer(request, question, results);
    let sent = 0;
    for (const token of toTokens(text)) {
      if (signal.aborted) throw abortError(signal);
      yield { type: 'text', text: token };
      // A plain timer, not timers/promises with the signal: that adds and removes an abort listener on the
      // turn's composite signal per token, which costs more than the token itself at a thousand streams.
      // The pause is short and the signal is checked right after it.
      if (this.tokenDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.tokenDelayMs));
      else if (++sent % this.tokensPerTick === 0) await yieldToLoop();
    }
    yield { type: 'end', reason: 'stop' };
  }

  private async answer(
    request: ProviderRequest,
    question: string,
    results: ProviderMessage[],
  ): Promise<string> {
    const ok = results.filter((m) => !m.isError && m.content.trim());
    const sources: AnswerSource[] = ok.map((m) => ({
      title: firstHeading(m.content) ?? 'reference',
      text: m.content,
    }));
    let missing: MissingReason = 'none';
    if (!sources.length && results.length)
      missing = results.some((m) => /not allowed/i.test(m.content)) ? 'denied' : 'failed';
    let fallback: string | undefined;
    if (!sources.length || request.grounding) {
      const skills: AnswerSource[] = [];
      for (const id of request.agent.skills) {
        const skill = await this.library.readSkill(id);
        if (skill) skills.push({ title: id, text: `${skill.description}\n\n${skill.body}` });
      }
      fallback = skills.length ? generalGuidance(skills) || undefined : undefined;
    }
    if (request.grounding) {
      // A chat turn: cite the retrieved sources and the reference read, or say nothing relevant was found.
      if (sources.length) fallback = undefined;
      return composeGroundedAnswer({
        agentName: request.agent.name,
        question,
        sources: request.grounding.sources,
        references: sources,
        missing,
        fallback,
        specialist: request.grounding.specialist,
      });
    }
    return composeAnswer({ agentName: request.agent.name, question, sources, missing, fallback });
  }

  private async pickReference(skills: string[], question: string): Promise<SkillReference | undefined> {
    if (!skills.length) return undefined;
    const key = skills.join('\u0000');
    let index = this.indexes.get(key);
    if (!index) {
      index = this.buildIndex(skills);
      this.indexes.set(key, index);
      index.catch(() => this.indexes.delete(key));
    }
    const [best] = (await index).search(question, 1);
    return best?.source;
  }

  private async buildIndex(skills: string[]): Promise<Bm25Index<SkillReference>> {
    const passages: Array<Passage<SkillReference>> = [];
    for (const ref of await this.library.listReferences(skills)) {
      const text = await this.library.readReference(ref.skill, ref.reference);
      if (!text) continue;
      splitPassages(text).forEach((p, position) =>
        passages.push({ source: ref, text: p.text, heading: `${ref.title} ${p.heading}`, position }),
      );
    }
    return new Bm25Index(passages);
  }
}

function generalGuidance(skills: AnswerSource[]): string {
  // The person-facing sentences of each skill description; "Use when..." lines are instructions to the agent.
  const topics = skills
    .map((s) =>
      (s.text.split('\n')[0] ?? '')
        .split(/(?<=\.)\s+/)
        .filter((x) => x && !/^use\b/i.test(x))
        .join(' '),
    )
    .filter(Boolean)
    .map((t) => `- ${t.replace(/\.$/, '')}`);
  return topics.length ? `I can help with:\n${topics.join('\n')}` : '';
}

function firstHeading(markdown: string): string | undefined {
  return /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
}

function findLastIndex<T>(items: T[], pred: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i])) return i;
  return -1;
}
