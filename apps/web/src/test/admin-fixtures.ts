import type { AdminStore } from '@portal/contracts';

/** A store as GET /admin/stores answers it (contracts' adminStoreSchema), for admin route tests; override what a test needs. */
export const adminStore = (over: Partial<AdminStore> = {}): AdminStore => ({
  id: 2190,
  warehouseId: 2190,
  warehouseCode: 'DTW',
  name: 'Downtown Wines',
  boardId: 1,
  boardNumber: 1,
  boardName: 'State Board',
  splitCasePolicy: 'any',
  splitCaseFee: '0.00',
  address: null,
  city: 'Albany',
  state: 'NY',
  zipCode: null,
  phone: null,
  latitude: null,
  longitude: null,
  active: true,
  isWarehouse: false,
  deliveryEnabled: false,
  deliveryCharge: '0.00',
  orderconfCcemails: null,
  hasPaymentCredentials: true,
  outletCount: 0,
  ...over,
});
