/** The API contract shared by apps/api and apps/web: zod schemas, types, permission and error codes. */
export * from './permissions';
export * from './problem';
export * from './common';
export * from './auth';
export * from './phone';
export * from './live';
export * from './me';
export * from './catalog';
export * from './carts';
export * from './orders';
export * from './grants';
export * from './admin-users';
export * from './admin-org';
export * from './invitations';
export * from './payments';
export * from './integrations';
