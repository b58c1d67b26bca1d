/**
 * What a kind's operation answered, typed by its service function: the generic procedures
 * (`channels.connect`, `update`, `query`, `act`) answer each kind's own shape, which only the
 * kind's card knows.
 */
export const resultOf = <F extends (...args: never[]) => Promise<unknown>>(data: unknown) =>
  data as Awaited<ReturnType<F>> | undefined;
