/**
 * The ordering-week shapes the web reads (ARCHITECTURE §5 "The licensee's ordering week"), from libs/contracts
 * under the names this feature uses.
 */
export {
  orderGuideSchema,
  orderGuideListSchema,
  guideToCartResultSchema as toCartResultSchema,
  quickOrderResultSchema as bulkResultsSchema,
  suggestedOrderSchema,
} from '@portal/contracts';
export type {
  OrderGuide,
  OrderGuideLine as GuideLine,
  OrderGuideSummary,
  GuideToCartResult as ToCartResult,
  QuickOrderRowResult as BulkResult,
  SuggestedLine,
  CreateOrderGuideBody as GuideBody,
} from '@portal/contracts';
