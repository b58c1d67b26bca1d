/** A tRPC error as the forms get it: zod's issues at their paths, or a domain error's field. */
export interface FormError {
  message: string;
  data?: { issues?: { path: string; message: string }[] | null; field?: string | null } | null;
}

/**
 * A form's error split by field: `of(field)` is the message to show under that field (its
 * input's path is `prefix` + field, e.g. `settings.name`), `rest` what no field shows, for the
 * form's own alert, so nothing the server said is lost.
 */
export function formErrors(error: FormError | null | undefined, prefix: string, fields: readonly string[]) {
  if (!error) return { of: (_field: string) => null, rest: null };
  const issues = error.data?.issues ?? [];
  const fieldOf = (path: string) =>
    fields.find((f) => path === prefix + f || path.startsWith(`${prefix}${f}.`));
  const domainField = error.data?.field && fields.includes(error.data.field) ? error.data.field : null;
  const of = (field: string): string | null =>
    issues.find((i) => fieldOf(i.path) === field)?.message ?? (domainField === field ? error.message : null);
  const others = issues.filter((i) => !fieldOf(i.path));
  const rest =
    issues.length === 0
      ? domainField
        ? null
        : error
      : others.length
        ? { message: others.map((i) => `${i.path || 'input'}: ${i.message}`).join('; ') }
        : null;
  return { of, rest };
}
