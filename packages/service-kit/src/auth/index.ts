export * from './role-scopes';
export * from './access-token-verifier';
export * from './bearer-auth';
export * from './verifier-from-config';
