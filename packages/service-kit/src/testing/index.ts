export * from './http-fuzz';
