/** Admin audit (issue 12): the Audit tab. */
export { AuditTab } from './components/audit-tab';
