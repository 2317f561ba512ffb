export * from './http-fuzz';
export * from './openapi';
