/**
 * Pricing analysis maths (spec 001 §9). Pure functions, no React.
 * Ounces come from the item's real bottle volume (ARCHITECTURE §9); 750 ml only when it is unknown.
 */

/** Millilitres in one US fluid ounce. */
export const ML_PER_OUNCE = 29.5735;
/** A shot is 1.5 oz. */
export const SHOT_OUNCES = 1.5;
/** Bottle volume assumed when the item's size is unknown. */
export const DEFAULT_VOLUME_ML = 750;
/** The two markups the analysis shows: 400 % (×4) and 550 % (×5.5) of the shot cost. */
export const MARKUPS = [
  { percent: 400, factor: 4 },
  { percent: 550, factor: 5.5 },
] as const;

export interface MarkupResult {
  percent: number;
  /** Shot price at this markup = factor × cost per shot. */
  shotPrice: number;
  /** Profit per bottle = shot price × shots per bottle − bottle price. */
  profit: number;
}

export interface PricingAnalysis {
  price: number;
  volumeMl: number;
  /** True when the item's volume was unknown and 750 ml was assumed. */
  volumeAssumed: boolean;
  volumeOz: number;
  pricePerOunce: number;
  pricePerShot: number;
  /** Whole shots in the bottle (rounded down). */
  shotsPerBottle: number;
  markups: MarkupResult[];
}

/**
 * Parses the custom price typed by the user ("24.99", "$1,024.50", " 30 ") into dollars; anything that is
 * not a finite, non-negative number falls back to `fallback` (the item's price).
 */
export function parsePrice(text: string | null | undefined, fallback: number): number {
  const cleaned = (text ?? '').replace(/[$,\s]/g, '');
  if (cleaned === '' || !/^\d*\.?\d+$|^\d+\.$/.test(cleaned)) return fallback;
  const n = Number(cleaned);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** The bottle volume to calculate with: the known volume in ml, else 750 ml. */
export function effectiveVolumeMl(volumeMl: number | null | undefined): { volumeMl: number; assumed: boolean } {
  return volumeMl && volumeMl > 0 ? { volumeMl, assumed: false } : { volumeMl: DEFAULT_VOLUME_ML, assumed: true };
}

/** Price per ounce and shot, shots per bottle and the profit at the 400 % and 550 % markups. */
export function analysePricing(price: number, volumeMl: number | null | undefined): PricingAnalysis {
  const volume = effectiveVolumeMl(volumeMl);
  const volumeOz = volume.volumeMl / ML_PER_OUNCE;
  const pricePerOunce = price / volumeOz;
  const pricePerShot = pricePerOunce * SHOT_OUNCES;
  // The epsilon keeps an exact multiple (e.g. 45 oz = 30 shots) from flooring to one less by float error.
  const shotsPerBottle = Math.floor(volumeOz / SHOT_OUNCES + 1e-9);
  const markups = MARKUPS.map(({ percent, factor }) => {
    const shotPrice = pricePerShot * factor;
    return { percent, shotPrice, profit: shotPrice * shotsPerBottle - price };
  });
  return {
    price,
    volumeMl: volume.volumeMl,
    volumeAssumed: volume.assumed,
    volumeOz,
    pricePerOunce,
    pricePerShot,
    shotsPerBottle,
    markups,
  };
}
