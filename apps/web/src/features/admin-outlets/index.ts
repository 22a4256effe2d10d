/** Admin Outlets tab (spec 002 §2 Outlets). */
export { OutletsTab } from './outlets-tab';
