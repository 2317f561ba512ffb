import { Type } from '@care/contracts';

const int = (description: string, def: number, minimum: number, maximum?: number) =>
  Type.Integer({ description, default: def, minimum, ...(maximum === undefined ? {} : { maximum }) });

/** Environment variables of the chat engine and the console; spread into the service's ConfigSchema. */
export const ChatConfigProperties = {
  CHAT_HEARTBEAT_MS: int(
    'SSE heartbeat comment after this much idle time on a chat stream; 0 turns it off',
    15000,
    0,
  ),
  CHAT_TURN_TIMEOUT_MS: int(
    'Upper bound of one chat turn (model and tools); also the busy-thread lease',
    120000,
    1000,
  ),
  CHAT_MAX_TOOL_ROUNDS: int('Model turns that may call tools before the model must answer', 4, 0, 10),
  CHAT_MAX_TOKENS: int('Maximum tokens a hosted model may generate per model turn', 1024, 16),
  CHAT_RECENT_USER_MESSAGES: int(
    'Earlier user messages the red-flag detector reads with the latest one',
    3,
    0,
    20,
  ),
  CHAT_OFFLINE_TOKEN_DELAY_MS: int(
    'Pause between tokens of the offline engine (0: as fast as possible)',
    0,
    0,
    1000,
  ),
  MEMORY_TIMEOUT_MS: int(
    'Bound of one memory service call; a slower memory is reported as unavailable',
    2000,
    50,
  ),
  CONSOLE_AUTH_URL: Type.String({
    description: 'platform-auth base URL the /console page signs in against (email/password)',
    default: 'http://localhost:8080',
  }),
};
