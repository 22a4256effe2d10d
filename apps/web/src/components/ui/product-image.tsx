import { cn } from '@/lib/cn';

/** Tints by category family so the placeholder grid does not look like one repeated picture. */
const tints = [
  { glass: '#fde7c8', liquid: '#d97706', label: '#fffaf0' }, // amber: whisky, rum, brandy
  { glass: '#e0f2fe', liquid: '#bae6fd', label: '#ffffff' }, // clear: vodka, gin, tequila blanco
  { glass: '#fce7f3', liquid: '#be185d', label: '#fff7fb' }, // red: liqueurs, wine
  { glass: '#dcfce7', liquid: '#15803d', label: '#f7fff9' }, // green: schnapps, absinthe
] as const;

function tintFor(category: string | undefined) {
  const c = (category ?? '').toLowerCase();
  if (/vodka|\bgins?\b|tequila|blanco|silver|white|mezcal|neutral/.test(c)) return tints[1];
  if (/liqueur|cordial|wine|cream|schnapps.*(cherry|raspberry)|amaretto/.test(c)) return tints[2];
  if (/schnapps|absinthe|mint|melon/.test(c)) return tints[3];
  return tints[0];
}

/**
 * The product image placeholder (the catalog has no photos): a drawn bottle tinted by the product's
 * category (or name when the category says nothing), decorative (aria-hidden): the name is next to it.
 */
export function ProductImage({ category, name, className }: { category?: string; name?: string; className?: string }) {
  const t = tintFor(`${category ?? ''} ${name ?? ''}`);
  return (
    <div className={cn('flex items-center justify-center rounded-md bg-gradient-to-b from-stone-50 to-stone-100', className)} aria-hidden>
      <svg viewBox="0 0 40 100" className="h-[78%] w-auto drop-shadow-sm" role="presentation">
        <rect x="15.5" y="2" width="9" height="7" rx="1.5" fill="#44403c" />
        <path
          d="M16.5 9h7v14c0 4 9 8 9 17v52a6 6 0 0 1-6 6h-13a6 6 0 0 1-6-6V40c0-9 9-13 9-17z"
          fill={t.glass}
          stroke="#a8a29e"
          strokeWidth="1"
        />
        <path d="M8.5 52h23v40a5 5 0 0 1-5 5h-13a5 5 0 0 1-5-5z" fill={t.liquid} opacity="0.55" />
        <rect x="10" y="56" width="20" height="22" rx="2" fill={t.label} stroke="#d6d3d1" strokeWidth="0.8" />
        <rect x="13" y="61" width="14" height="2.2" rx="1" fill="#a8a29e" />
        <rect x="14.5" y="66" width="11" height="1.6" rx="0.8" fill="#d6d3d1" />
        <rect x="14.5" y="70" width="11" height="1.6" rx="0.8" fill="#d6d3d1" />
        <path d="M12 30c1.5-3 4-4.5 4-4.5" stroke="#ffffff" strokeWidth="1.4" strokeLinecap="round" fill="none" opacity="0.8" />
      </svg>
    </div>
  );
}
