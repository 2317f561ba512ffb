// Public API of @care/crypto: stateless OAuth callback relay tickets (spec care-consult: Relay ticket).
export {
  MAX_ERROR_DESCRIPTION_LENGTH,
  MAX_ISSUER_LENGTH,
  MAX_PROVIDER_ERROR_LENGTH,
  cleanErrorDescription,
  validateIssuer,
  validateProviderError,
} from './authorization-response';
export type { IssuerOptions } from './authorization-response';
export { canonicalJson } from './canonical-json';
export { DEFAULT_COMPANION_SCHEME, MAX_CALLBACK_URL_LENGTH, validateCallbackUrl } from './callback-url';
export { issueRelayTicket } from './issue-relay-ticket';
export type { IssueInput, IssueOptions, IssuedRelayTicket } from './issue-relay-ticket';
export { InMemoryNonceStore } from './nonce-store';
export type { InMemoryNonceStoreOptions, NonceStore } from './nonce-store';
export { RedisNonceStore } from './redis-nonce-store';
export type { RedisNonceStoreOptions, RedisSetClient } from './redis-nonce-store';
export { RELAY_SERVER_ERROR_CODES, RelayError } from './relay-error';
export type { RelayErrorCode } from './relay-error';
export { MIN_RELAY_KEY_LENGTH } from './relay-keys';
export type { RelayKeys } from './relay-keys';
export { MAX_AUTHORIZATION_CODE_LENGTH, resolveRelayError, resolveRelayTicket } from './resolve-relay-ticket';
export type {
  RelayResolution,
  ResolveErrorInput,
  ResolveInput,
  TicketCheckInput,
} from './resolve-relay-ticket';
export {
  MAX_RELAY_ID_LENGTH,
  MAX_RELAY_TICKET_LENGTH,
  MAX_RELAY_TICKET_TTL_SECONDS,
  RELAY_CLOCK_SKEW_SECONDS,
  RELAY_PROTOCOL_VERSION,
} from './relay-ticket';
export type { RelayTicketPayload } from './relay-ticket';
