import type {
  ProviderMessage,
  ProviderRequest,
  ProviderToolSpec,
} from '../../../src/providers/provider.types';

/** The read tool as offered to a model. */
export const readToolSpec: ProviderToolSpec = {
  name: 'read_skill_reference',
  description: 'Read a reference document of one of your skills',
  parameters: {
    type: 'object',
    properties: { skill: { type: 'string' }, reference: { type: 'string' } },
    required: ['skill', 'reference'],
  },
};

/** Builder of provider requests: `aProviderRequest().asking('...').withTools(readToolSpec).build()`. */
export function aProviderRequest() {
  const state = {
    system: 'You are a test agent.',
    messages: [] as ProviderMessage[],
    tools: [] as ProviderToolSpec[],
    agent: { id: 'test-agent', name: 'Test Agent', skills: [] as string[] },
    signal: new AbortController().signal,
  };
  const builder = {
    asking(text: string) {
      state.messages.push({ role: 'user', content: text });
      return builder;
    },
    withMessages(...messages: ProviderMessage[]) {
      state.messages.push(...messages);
      return builder;
    },
    withTools(...tools: ProviderToolSpec[]) {
      state.tools.push(...tools);
      return builder;
    },
    withSkills(...skills: string[]) {
      state.agent.skills = skills;
      return builder;
    },
    withSignal(signal: AbortSignal) {
      state.signal = signal;
      return builder;
    },
    build(): ProviderRequest {
      return { ...state, messages: [...state.messages], tools: [...state.tools], agent: { ...state.agent } };
    },
  };
  return builder;
}
