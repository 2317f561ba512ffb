export * from './memory.client';
