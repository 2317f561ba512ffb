export * from './ajv';
export * from './problem';
export * from './openapi';
export * from './openapi-check';
export * from './platform-auth';
export * from './care-consult';
export * from './memory';
export { Type } from '@sinclair/typebox';
export type { Static, TSchema } from '@sinclair/typebox';
