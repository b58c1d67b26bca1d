import { z } from 'zod';

/**
 * Who gets a broadcast (docs/broadcasts.md). Every condition narrows the recipients; none set:
 * every subscribed client. One filter selects them for the count shown before sending and for
 * the broadcast itself (server/db/broadcast-sql.ts), so the two agree.
 */
const id = z.number().int().positive();
const ids = z.array(id).max(1000).default([]);

export const variableOps = ['equals', 'not_equals', 'contains', 'is_set', 'is_not_set'] as const;
export type VariableOp = (typeof variableOps)[number];

export const recipientFilterSchema = z.object({
  /** These clients only (the API's `clients`); unsubscribed ones included, as asked. */
  clientIds: z.array(id).max(10_000).optional(),
  /** Members of any of these lists. */
  listIds: ids,
  /** Members of none of these lists. */
  excludeListIds: ids,
  /** Messengers (client_type); empty: all. */
  clientTypes: z.array(z.number().int().min(0).max(1000)).max(50).default([]),
  /** Clients with an open deal in this CRM stage. */
  crmStateId: id.optional(),
  /** Clients whose current block is this one. */
  blockId: id.optional(),
  variable: z
    .object({
      name: z
        .string()
        .trim()
        .min(1, { error: 'Name the variable.' })
        .max(200)
        .transform((n) => n.replace(/^client\./, '')),
      op: z.enum(variableOps),
      value: z.string().max(1000).default(''),
    })
    .optional(),
  /** First contact (the client's creation) at or after / before these instants. */
  firstContactAfter: z.coerce.date().optional(),
  firstContactBefore: z.coerce.date().optional(),
});

export type RecipientFilter = z.output<typeof recipientFilterSchema>;
export type RecipientFilterInput = z.input<typeof recipientFilterSchema>;

/** A one-line description of a filter, for the list of broadcasts. */
export function describeFilter(f: RecipientFilter, names: { lists?: Map<number, string> } = {}): string {
  const list = (xs: number[]) => xs.map((x) => names.lists?.get(x) ?? `list ${x}`).join(', ');
  const parts: string[] = [];
  if (f.clientIds) parts.push(`${f.clientIds.length} chosen clients`);
  if (f.listIds.length) parts.push(`in ${list(f.listIds)}`);
  if (f.excludeListIds.length) parts.push(`not in ${list(f.excludeListIds)}`);
  if (f.clientTypes.length) parts.push(`messenger ${f.clientTypes.join(', ')}`);
  if (f.crmStateId) parts.push(`CRM stage ${f.crmStateId}`);
  if (f.blockId) parts.push(`in block ${f.blockId}`);
  if (f.variable)
    parts.push(`${f.variable.name} ${f.variable.op.replace('_', ' ')} ${f.variable.value}`.trim());
  if (f.firstContactAfter)
    parts.push(`first contact after ${f.firstContactAfter.toISOString().slice(0, 10)}`);
  if (f.firstContactBefore)
    parts.push(`first contact before ${f.firstContactBefore.toISOString().slice(0, 10)}`);
  return parts.length ? parts.join('; ') : 'Everyone subscribed';
}
