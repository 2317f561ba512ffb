export * from './errors';
export * from './validate';
export * from './config';
export * from './logger';
export * from './metrics';
export * from './health';
export * from './app';
export * from './server';
