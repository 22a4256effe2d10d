/** Admin Data Synch tab (spec 002 §2 Data Synch, issue 13 §6). */
export { DataSyncTab } from './data-sync-tab';
