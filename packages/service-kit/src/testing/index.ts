export * from './http-fuzz';
export * from './openapi';
export * from './engines';
export * from './clock';
export * from './tokens';
export * from './users';
