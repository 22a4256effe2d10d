import type { ReactNode } from 'react';
import { cityLine } from '../lib/order-text';

interface Address {
  name: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  phone: string | null;
}

/** A titled address: name, street, city/state/zip and phone (store information or delivery address). */
export function AddressBlock({ title, icon, address }: { title: string; icon?: ReactNode; address: Address }) {
  const location = cityLine(address);
  return (
    <section className="rounded-md border border-stone-200 p-3 text-sm">
      <h3 className="mb-1.5 flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-stone-500">
        {icon}
        {title}
      </h3>
      <address className="space-y-0.5 not-italic text-stone-700">
        <div className="font-medium text-stone-900">{address.name}</div>
        {address.address && <div>{address.address}</div>}
        {location && <div>{location}</div>}
        {address.phone && (
          <div>
            <a className="text-brand-700 hover:underline" href={`tel:${address.phone.replace(/[^\d+]/g, '')}`}>
              {address.phone}
            </a>
          </div>
        )}
      </address>
    </section>
  );
}
