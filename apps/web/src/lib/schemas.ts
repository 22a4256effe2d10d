/**
 * The contracts' zod schemas the always-loaded code (session, selection, sign-in forms) validates with,
 * re-exported for `import('./schemas')`: a dynamic import of this module loads zod only when a schema is
 * first needed, while the constants (PERMISSIONS, AUTH_MESSAGES) stay importable from @portal/contracts
 * without it (issue 15 §4).
 */
export {
  meSchema,
  myOutletsSchema,
  outletStoresSchema,
  passwordRecoveryBodySchema,
  passwordResetBodySchema,
  selectionSchema,
  tokenResponseSchema,
} from '@portal/contracts';
