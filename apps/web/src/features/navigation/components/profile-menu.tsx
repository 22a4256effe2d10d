import { Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import {
  Building2,
  Calculator,
  ChevronDown,
  CircleUser,
  ClipboardList,
  BookOpenCheck,
  Lightbulb,
  ListPlus,
  LogOut,
  Receipt,
  ShieldCheck,
  ShoppingBag,
  ShoppingCart,
  UserPen,
  UserPlus,
} from 'lucide-react';
import { PERMISSIONS } from '@portal/contracts';
import { Inbox } from 'lucide-react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/cn';
import { useSession } from '@/lib/session';
import { useProfileMenu } from '../hooks/use-profile-menu';
import { MenuSection } from './menu-section';
import { ScrollableMenuBody } from './scrollable-menu-body';

/** The menu's title (spec 000 §2): first name, else full name, else 'User'. */
export function menuTitle(profile: { firstName: string | null; fullName: string | null } | null | undefined): string {
  return profile?.firstName?.trim() || profile?.fullName?.trim() || 'User';
}

function NavItem({ to, icon, children }: { to: string; icon: ReactNode; children: ReactNode }) {
  const { pathname } = useLocation();
  const current = pathname === to;
  if (current) {
    return (
      <DropdownMenuItem disabled aria-current="page" className="bg-brand-50 font-medium text-brand-900 data-[disabled]:opacity-100">
        {icon}
        {children}
      </DropdownMenuItem>
    );
  }
  return (
    <DropdownMenuItem asChild>
      <Link to={to}>
        {icon}
        {children}
      </Link>
    </DropdownMenuItem>
  );
}

/** Who decides outlet requests (the user-management permissions; the server checks each outlet). */
const OUTLET_REQUEST_DECIDERS = [
  PERMISSIONS.usersSuperAdmin,
  PERMISSIONS.usersManageBoard,
  PERMISSIONS.usersManageStore,
  PERMISSIONS.usersManageOutlet,
];

const icon = (I: typeof ShoppingBag) => <I className="h-4 w-4 text-stone-500" aria-hidden />;

/** Dialogs other features provide to the menu; the app layer composes them (features never import each other). */
export interface ProfileMenuDialogs {
  InviteUser?: ComponentType<{ open: boolean; onOpenChange: (open: boolean) => void }>;
  OutletRequests?: ComponentType<{ open: boolean; onOpenChange: (open: boolean) => void; showInvitations: boolean }>;
}

/**
 * The profile menu of the header (spec 000 §2): shown when signed in with a profile. Shop, My Cart,
 * My Orders, Pricing Calculator; OUTLETS and STORES sections (switching clears shop filters and toasts);
 * Manage Store Orders, Invite User and Admin by permission; Edit Profile; Log Out. Scroll buttons and
 * a width of w-72 under 768 px, else w-64.
 */
export function ProfileMenu({ dialogs = {} }: { dialogs?: ProfileMenuDialogs }) {
  const { me, hasPermission } = useSession();
  const menu = useProfileMenu();
  const { logOut } = menu;
  const [inviteOpen, setInviteOpen] = useState(false);
  const [requestsOpen, setRequestsOpen] = useState(false);

  if (!me?.profile) return null;

  const title = menuTitle(me.profile);
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          className={cn(
            'flex h-10 max-w-[9rem] items-center gap-1.5 rounded-md px-2 text-sm font-medium text-stone-800 cursor-pointer sm:max-w-[14rem]',
            'hover:bg-stone-100 data-[state=open]:bg-stone-100',
          )}
        >
          <CircleUser className="h-5 w-5 shrink-0 text-brand-700" aria-hidden />
          <span className="truncate">{title}</span>
          <ChevronDown className="h-4 w-4 shrink-0 text-stone-500" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent
          align="end"
          collisionPadding={8}
          className="flex w-72 max-h-[var(--radix-dropdown-menu-content-available-height)] flex-col p-0 md:w-64"
        >
          <ScrollableMenuBody>
            <DropdownMenuLabel className="truncate text-sm font-semibold normal-case tracking-normal text-stone-900">
              {title}
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
            <NavItem to="/shop" icon={icon(ShoppingBag)}>
              Shop
            </NavItem>
            <NavItem to="/cart" icon={icon(ShoppingCart)}>
              My Cart
            </NavItem>
            {hasPermission(PERMISSIONS.cartsUse) && (
              <>
                <NavItem to="/order-guides" icon={icon(BookOpenCheck)}>
                  Order Guides
                </NavItem>
                <NavItem to="/quick-order" icon={icon(ListPlus)}>
                  Quick Order
                </NavItem>
                <NavItem to="/suggested-order" icon={icon(Lightbulb)}>
                  Suggested Order
                </NavItem>
              </>
            )}
            <NavItem to="/order-history" icon={icon(Receipt)}>
              My Orders
            </NavItem>
            <NavItem to="/pricing-calculator" icon={icon(Calculator)}>
              Pricing Calculator
            </NavItem>
            <DropdownMenuSeparator />
            <PlaceSections menu={menu} />
            <DropdownMenuSeparator />
            {(hasPermission(PERMISSIONS.ordersStoreManage) || hasPermission(PERMISSIONS.ordersOutletManage)) && (
              <NavItem to="/orders" icon={icon(ClipboardList)}>
                Manage Store Orders
              </NavItem>
            )}
            {hasPermission(PERMISSIONS.usersAllowInvites) && (
              <DropdownMenuItem onSelect={() => setInviteOpen(true)}>{icon(UserPlus)}Invite User</DropdownMenuItem>
            )}
            {/* Outlet requests (issue 11 §9): for those who may decide them, until the admin area hosts the panel. */}
            {OUTLET_REQUEST_DECIDERS.some((c) => hasPermission(c)) && (
              <DropdownMenuItem onSelect={() => setRequestsOpen(true)}>{icon(Inbox)}Outlet Requests</DropdownMenuItem>
            )}
            {hasPermission(PERMISSIONS.uiShowAdminMenu) && (
              <NavItem to="/admin" icon={icon(ShieldCheck)}>
                Admin
              </NavItem>
            )}
            <NavItem to="/profile" icon={icon(UserPen)}>
              Edit Profile
            </NavItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              onSelect={() => {
                void logOut();
              }}
            >
              {icon(LogOut)}Log Out
            </DropdownMenuItem>
          </ScrollableMenuBody>
        </DropdownMenuContent>
      </DropdownMenu>
      <Suspense fallback={null}>
        {dialogs.InviteUser && inviteOpen && <dialogs.InviteUser open={inviteOpen} onOpenChange={setInviteOpen} />}
        {dialogs.OutletRequests && requestsOpen && (
          <dialogs.OutletRequests
            open={requestsOpen}
            onOpenChange={setRequestsOpen}
            showInvitations={hasPermission(PERMISSIONS.usersAllowInvites)}
          />
        )}
      </Suspense>
    </>
  );
}

/** The OUTLETS and STORES sections (switching toasts), with Request Outlets while the person has no outlet (issue 9 §4). */
function PlaceSections({ menu }: { menu: ReturnType<typeof useProfileMenu> }) {
  const { sel, setExpanded, outletChoices, storeChoices, chooseOutlet, chooseStore } = menu;
  const sections = menu.sections();
  return (
    <>
      <MenuSection
        title="OUTLETS"
        choices={outletChoices}
        currentId={sel.outlet?.outletId ?? null}
        emptyText={sel.outletsError ? (sel.problem ?? 'No outlets available') : 'No outlets available'}
        loading={sel.outletsLoading}
        expanded={sections.outlets}
        onToggle={() => setExpanded('outlets', !sections.outlets)}
        onChoose={chooseOutlet}
      />
      {/* No outlets: the way out is a request (issue 9 §4), not a circle back to the shop. */}
      {!sel.outletsLoading && sel.outlets.length === 0 && (
        <NavItem to="/profile#my-outlets" icon={icon(Building2)}>
          Request Outlets
        </NavItem>
      )}
      <DropdownMenuSeparator />
      <MenuSection
        title="STORES"
        choices={storeChoices}
        currentId={sel.store?.id ?? null}
        emptyText={sel.outlet ? 'No stores available for this outlet' : 'Select an outlet first'}
        loading={Boolean(sel.outlet) && sel.storesLoading}
        expanded={sections.stores}
        onToggle={() => setExpanded('stores', !sections.stores)}
        onChoose={chooseStore}
      />
    </>
  );
}
