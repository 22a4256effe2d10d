/** The licensee's ordering week (issue 27): order guides, quick order, suggested order. */
export { OrderGuidesPage } from './components/order-guides-page';
export { QuickOrderPage } from './components/quick-order-page';
export { SuggestedOrderPage } from './components/suggested-order-page';
