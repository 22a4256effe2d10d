/** Texts of the shop page (spec 001 §2 and §8), verbatim. */
export const SHOP_TEXTS = {
  noStore: 'No store selected',
  noStoreHint: 'Please select an outlet from your profile menu to start shopping.',
  /** Spec 000 §8 'No outlets'. */
  noOutlets: 'No outlets assigned to your account. Please contact support.',
  requestOutlets: 'Request Outlets',
  /** Spec 000 §8 'Outlets fetch'. */
  outletsFailedTitle: 'Something went wrong',
  outletsFailed: (message: string) => `Failed to fetch user outlets: ${message}`,
  searchPlaceholder: 'Search by name or item code...',
  allSizes: 'All Sizes',
  clearAll: 'Clear All',
  noResults: 'No products found',
  noResultsLine1: 'No products found matching your criteria.',
  noResultsLine2: 'Try adjusting your search criteria or size filter.',
  welcome: 'Ready to start ordering?',
  browseAll: 'Browse all products',
  loadError: 'Failed to load store inventory. Please try again.',
  noViewPermission: "You don't have permission to view items. Please contact your administrator.",
} as const;
