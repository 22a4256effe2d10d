/** Which menu sections are expanded; kept for the browser session and cleared on log out (spec 000 §2). */
export type MenuSectionKey = 'outlets' | 'stores';
export type MenuSections = Record<MenuSectionKey, boolean>;

export const MENU_STATE_KEY = 'portal.profile-menu.sections';
const DEFAULTS: MenuSections = { outlets: true, stores: true };

function store(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The saved expanded state (both expanded when nothing is saved). */
export function readMenuSections(): MenuSections {
  try {
    const raw = store()?.getItem(MENU_STATE_KEY);
    if (!raw) return { ...DEFAULTS };
    const v = JSON.parse(raw) as Partial<MenuSections>;
    return { outlets: v.outlets !== false, stores: v.stores !== false };
  } catch {
    return { ...DEFAULTS };
  }
}

export function writeMenuSections(s: MenuSections) {
  store()?.setItem(MENU_STATE_KEY, JSON.stringify(s));
}
export function clearMenuSections() {
  store()?.removeItem(MENU_STATE_KEY);
}
