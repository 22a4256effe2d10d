/** Admin roles (issue 12): the Roles tab. */
export { RolesTab } from './components/roles-tab';
