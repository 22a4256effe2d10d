/** Admin Credentials tab (spec 002 §2 Credentials). */
export { CredentialsTab } from './credentials-tab';
