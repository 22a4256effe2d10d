import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { notify } from '@/components/ui/toaster';
import { useSelection } from '@/lib/selection';
import { useSession } from '@/lib/session';
import { clearMenuSections, readMenuSections, writeMenuSections, type MenuSectionKey } from '../utils/menu-state';
import { outletMenuName, storeLocation, storeName } from '../utils/names';
import type { MenuChoice } from '../components/menu-section';

/**
 * The profile menu's state and actions (spec 000 §2): which sections are open (kept in local storage), the
 * outlet and store choices, switching outlet or store (a toast either way; the section stays open) and Log Out
 * (clears the saved sections, toasts and goes to /auth).
 */
export function useProfileMenu() {
  const { signOut } = useSession();
  const sel = useSelection();
  const navigate = useNavigate();
  const [sections, setSections] = useState(readMenuSections);

  const setExpanded = (key: MenuSectionKey, value: boolean) => {
    setSections((s) => {
      const next = { ...s, [key]: value };
      writeMenuSections(next);
      return next;
    });
  };

  const outletChoices: MenuChoice[] = sel.outlets.map((o) => ({
    id: o.outletId,
    label: outletMenuName(o),
    detail: o.isAdminOutlet ? null : [o.outletCity, o.outletState].filter(Boolean).join(', ') || null,
  }));
  const storeChoices: MenuChoice[] = sel.stores.map((s) => ({ id: s.id, label: storeName(s), detail: storeLocation(s) }));

  const chooseOutlet = async (c: MenuChoice) => {
    setExpanded('outlets', true);
    try {
      await sel.selectOutlet(c.id);
      notify({ title: 'Outlet switched', description: `Now viewing ${c.label}`, variant: 'success' });
    } catch {
      notify({ title: 'Error', description: 'Failed to switch outlet. Please try again.', variant: 'destructive' });
    }
  };
  const chooseStore = async (c: MenuChoice) => {
    setExpanded('stores', true);
    try {
      await sel.selectStore(c.id);
      notify({ title: 'Store switched', description: `Now shopping from ${c.label}`, variant: 'success' });
    } catch {
      notify({ title: 'Error', description: 'Failed to switch store. Please try again.', variant: 'destructive' });
    }
  };
  const logOut = async () => {
    try {
      await signOut();
      clearMenuSections();
      setSections(readMenuSections());
      notify({ title: 'Logged out successfully', description: 'You have been successfully logged out', variant: 'success' });
      navigate('/auth');
    } catch {
      notify({ title: 'Error', description: 'Failed to log out. Please try again.', variant: 'destructive' });
    }
  };

  return { sel, sections, setExpanded, outletChoices, storeChoices, chooseOutlet, chooseStore, logOut };
}
