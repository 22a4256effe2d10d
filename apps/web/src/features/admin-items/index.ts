/** Admin Items tab (spec 002 §2 Items). */
export { ItemsTab } from './items-tab';
