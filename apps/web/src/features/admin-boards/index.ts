/** Admin Boards tab (spec 002 §2 Boards). */
export { BoardsTab } from './boards-tab';
