import type { ReactNode } from 'react';

/** The white panel of the sign-in screen: an icon, a title (h1), a subtitle and the body. */
export function AuthCard({
  icon,
  title,
  description,
  children,
}: {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby="auth-title"
      className="w-full max-w-md rounded-xl border border-white/40 bg-white/95 p-6 shadow-2xl backdrop-blur sm:p-8"
    >
      <div className="mb-6 space-y-2 text-center">
        {icon && (
          <div className="mx-auto mb-3 flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700" aria-hidden>
            {icon}
          </div>
        )}
        <h1 id="auth-title" className="text-2xl font-bold tracking-tight text-stone-900">
          {title}
        </h1>
        {description && <p className="text-sm text-stone-600">{description}</p>}
      </div>
      {children}
    </section>
  );
}
