import { Link } from 'react-router-dom';
import { AlertCircle, Store } from 'lucide-react';
import { useSelection } from '@/lib/selection';
import { cn } from '@/lib/cn';
import { outletHeaderText } from '../utils/names';

/** The header's current outlet with its icon, linking to /shop (spec 000 §1, §2 texts for error, loading, none). */
export function OutletDisplay({ className }: { className?: string }) {
  const { outlet, outletsError, outletsLoading, loading } = useSelection();
  const error = Boolean(outletsError);
  const text = outletHeaderText({ error, loading: outletsLoading || loading, outlet });
  const Icon = error ? AlertCircle : Store;
  return (
    <Link
      to="/shop"
      data-testid="outlet-display"
      title={text}
      className={cn('flex min-w-0 items-center gap-1.5 rounded-md text-stone-600 hover:text-brand-800', error && 'text-red-700', className)}
    >
      <Icon className="h-4 w-4 shrink-0" aria-hidden />
      <span className="min-w-0 break-words md:truncate">{text}</span>
    </Link>
  );
}
