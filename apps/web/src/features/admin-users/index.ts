/** Admin users (issue 12): the Users tab and the Edit User screen. */
export { UsersTab } from './components/users-tab';
export { EditUserScreen, AccessDenied } from './components/edit-user-screen';
