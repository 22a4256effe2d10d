import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

/**
 * A react-hook-form resolver validating with a contracts zod schema that is loaded, with
 * @hookform/resolvers/zod, on the first validation instead of with the page (issue 15 §4: no zod in the
 * first route's JavaScript). Same messages and results as `zodResolver(schema)`.
 * Usage: `resolver: lazyZodResolver(async () => (await import('@/lib/schemas')).loginBodySchema)`.
 */
export function lazyZodResolver<T extends FieldValues>(loadSchema: () => Promise<ZodType<T>>): Resolver<T> {
  let resolver: Resolver<T> | null = null;
  return async (values, context, options) => {
    if (!resolver) {
      const [{ zodResolver }, schema] = await Promise.all([import('@hookform/resolvers/zod'), loadSchema()]);
      resolver = zodResolver(schema as never) as unknown as Resolver<T>;
    }
    return resolver(values, context, options);
  };
}
