/** Admin Stores tab and the store editor (spec 002 §2 Stores). */
export { StoresTab } from './stores-tab';
export { StoreEditorRoute } from './store-editor';
