import type { ReactNode } from 'react';

/** One anchored section of Edit Profile: a card with a focusable heading (the in-page nav moves focus to it). */
export function SectionCard({
  id,
  title,
  description,
  icon,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-36 rounded-lg border border-stone-200 bg-white shadow-sm lg:scroll-mt-24"
    >
      <div className="flex items-start gap-3 border-b border-stone-100 p-5">
        {icon && (
          <span className="mt-0.5 text-brand-700" aria-hidden>
            {icon}
          </span>
        )}
        <div className="space-y-1">
          <h2 id={`${id}-title`} tabIndex={-1} className="text-lg font-semibold text-stone-900 focus:outline-none">
            {title}
          </h2>
          {description && <p className="text-sm text-stone-500">{description}</p>}
        </div>
      </div>
      <div className="p-5">{children}</div>
    </section>
  );
}
