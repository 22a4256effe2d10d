/**
 * The access rules every module uses (ARCHITECTURE §4): who the caller is (the principal: user, active flag,
 * permission codes) and what data they reach. Other modules import these from here, never the repository:
 * - outlets: the active outlets assigned to the user (user_outlets);
 * - stores: `storeReach`, the one subquery of active stores linked to those outlets (store_outlets);
 * - administration: `manageableOutletsQuery`, the outlets a user administrator may manage.
 * Out of reach answers 404 like absent rows; callers throw, these only say yes or no.
 */
export type { Principal } from './access.repository';
export {
  findPrincipal,
  accessibleOutletIds,
  canReachOutlet,
  storeReach,
  canReachStore,
  storeReachExistsSql,
  reachableStoreIds,
} from './access.repository';
export { canManageOutlet, manageableOutletsQuery, outletScopeKind, type OutletScopeKind } from './access-scope';
