import { PricingCalculatorPage } from '@/features/pricing/components/pricing-calculator-page';

/** /pricing-calculator?code=: search a product of the current store and see its pricing analysis. */
export function PricingCalculatorRoute() {
  return <PricingCalculatorPage />;
}
