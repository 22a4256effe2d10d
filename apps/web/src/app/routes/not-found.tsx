import { Link } from 'react-router-dom';
import { Wine } from 'lucide-react';

/** Any unknown path (spec 002 §2): 'Oops! Page not found' with a link home. */
export function NotFoundRoute() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-24 text-center">
      <Wine className="h-12 w-12 text-brand-700" aria-hidden />
      <h1 className="text-4xl font-bold text-stone-900">404</h1>
      <p className="text-lg text-stone-600">Oops! Page not found</p>
      <Link to="/" className="font-medium text-brand-700 underline-offset-4 hover:underline">
        Return to Home
      </Link>
    </div>
  );
}
