import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ADMIN_ORG_MESSAGES, type AdminStore } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { notify } from '@/components/ui/toaster';
import { saveStore, storeFormSchema } from '../api/stores';

/** The store form's values as typed. */
export type StoreFormIn = z.input<typeof storeFormSchema>;
/** The store form's values once parsed (the save body). */
export type StoreFormOut = z.output<typeof storeFormSchema>;
type FormIn = StoreFormIn;
const M = ADMIN_ORG_MESSAGES;

/** Spec 002 §4: the store-save toast is dismissed after 3 s. */
const SAVE_TOAST_MS = 3000;

/** The fields of the Store tab (an error in one of them opens that tab). */
const storeFields: (keyof FormIn)[] = [
  'name',
  'warehouseCode',
  'boardId',
  'address',
  'city',
  'state',
  'zipCode',
  'phone',
  'latitude',
  'longitude',
];

const toForm = (s?: AdminStore): FormIn => ({
  name: s?.name ?? '',
  warehouseCode: s?.warehouseCode ?? '',
  boardId: s?.boardId as number,
  address: s?.address ?? '',
  city: s?.city ?? '',
  state: s?.state ?? '',
  zipCode: s?.zipCode ?? '',
  phone: s?.phone ?? '',
  latitude: s?.latitude ?? '',
  longitude: s?.longitude ?? '',
  active: s?.active ?? true,
  deliveryEnabled: s?.deliveryEnabled ?? false,
  deliveryCharge: s?.deliveryCharge ?? '0.00',
  orderconfCcemails: s?.orderconfCcemails ?? '',
});

/**
 * The store editor's form (spec 002 §4, §5, §8) on react-hook-form with the contracts' store schema: reset to
 * the store whenever it changes; `submit` creates or saves it ('Store created' / 'Store saved' for 3 s, then
 * `onSaved`), maps the API's field errors onto the fields and toasts the refusal; invalid input opens the tab
 * (`setTab`) holding the first error, with the spec's toast for CC emails.
 */
export function useStoreEditor({
  store,
  setTab,
  onSaved,
}: {
  store?: AdminStore;
  setTab: (tab: string) => void;
  onSaved: (saved: AdminStore) => void;
}) {
  const form = useForm<FormIn, unknown, StoreFormOut>({
    resolver: zodResolver(storeFormSchema),
    defaultValues: toForm(store),
  });
  const { handleSubmit, setError, reset } = form;
  useEffect(() => {
    reset(toForm(store));
  }, [store, reset]);
  const submit = handleSubmit(
    async (body) => {
      try {
        const saved = await saveStore(store?.id ?? null, body);
        notify({ title: store ? 'Store saved' : 'Store created', description: saved.name, variant: 'success', duration: SAVE_TOAST_MS });
        reset(toForm(saved));
        onSaved(saved);
      } catch (e) {
        const err = toApiError(e);
        for (const f of [...storeFields, 'deliveryCharge', 'orderconfCcemails'] as (keyof FormIn)[]) {
          const m = err.fieldError(f);
          if (m) setError(f, { message: m });
        }
        const title =
          err.status === 403
            ? M.storeModifyDenied
            : err.status === 404
              ? 'No rows were updated - check permissions or data'
              : 'Failed to save store';
        notify({ title, description: err.status === 403 ? undefined : err.message, variant: 'destructive', duration: SAVE_TOAST_MS });
      }
    },
    (errs) => {
      if (errs.orderconfCcemails)
        notify({
          title: M.invalidEmails,
          description: 'Separate addresses with semicolons, e.g. orders@example.com;manager@example.com',
          variant: 'destructive',
        });
      if (storeFields.some((f) => errs[f])) setTab('store');
      else if (errs.deliveryCharge || errs.orderconfCcemails) setTab('settings');
    },
  );
  return { form, submit };
}
