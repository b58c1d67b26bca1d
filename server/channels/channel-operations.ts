import { z } from 'zod';
import type { Db } from '@/server/db/client-type';
import type { ChannelModule, ChannelOperation } from './channel-module';
import { CHANNEL_MODULES } from './modules';

/**
 * The Channels tab's operations of every kind (connect, update, a kind's own queries and
 * actions) behind four generic procedures: the input names the `kind` (and, for a kind's own,
 * the `operation`), and the rest is that kind's module's input, checked by its schema so each
 * issue names its field. What a kind can do is its module's; nothing here names a kind.
 */

type Module = (typeof CHANNEL_MODULES)[number];
type Slot = 'connect' | 'update';
type Named = 'queries' | 'actions';

type SlotInput<M, S extends Slot> = M extends { kind: infer K } & Record<
  S,
  ChannelOperation<infer I, infer _Parsed, unknown>
>
  ? { kind: K } & I
  : never;
type NamedInput<M, N extends Named> = M extends { kind: infer K } & Record<N, infer Ops>
  ? {
      [O in keyof Ops]: Ops[O] extends ChannelOperation<infer I, infer _Parsed, unknown>
        ? { kind: K; operation: O } & I
        : never;
    }[keyof Ops]
  : never;

/** What `channels.connect` or `channels.update` takes: a kind, and its module's input. */
export type SlotOperationInput<S extends Slot> = SlotInput<Module, S>;
/** What `channels.query` or `channels.act` takes: a kind, its operation, and that operation's input. */
export type NamedOperationInput<N extends Named> = NamedInput<Module, N>;

type SlotOutput<M, S extends Slot> =
  M extends Record<S, ChannelOperation<infer _I, infer _P, infer O>> ? O : never;
type NamedOutput<M, N extends Named> =
  M extends Record<N, infer Ops>
    ? {
        [O in keyof Ops]: Ops[O] extends ChannelOperation<infer _I, infer _P, infer Out> ? Out : never;
      }[keyof Ops]
    : never;
/** What `channels.connect` or `channels.update` answers: one of the kinds' answers (a card reads its own). */
export type SlotOperationOutput<S extends Slot> = SlotOutput<Module, S>;
export type NamedOperationOutput<N extends Named> = NamedOutput<Module, N>;

const modules: readonly ChannelModule[] = CHANNEL_MODULES;

/** A ZodError at `path`: the procedures' error formatter gives it to the form as that field's. */
const issue = (path: string, message: string) =>
  new z.ZodError([{ code: 'custom', path: [path], message, input: undefined }]);

function operationOf(slot: Slot | Named, raw: unknown): { operation: ChannelOperation; input: unknown } {
  const head = z.looseObject({ kind: z.string(), operation: z.string().optional() }).safeParse(raw);
  if (!head.success) throw head.error;
  const module = modules.find((m) => m.kind === head.data.kind);
  if (!module) throw issue('kind', `There is no channel kind "${head.data.kind}".`);
  const own = slot === 'queries' || slot === 'actions' ? module[slot] : undefined;
  const operation =
    slot === 'connect' || slot === 'update'
      ? module[slot]
      : head.data.operation === undefined
        ? undefined
        : own && Object.hasOwn(own, head.data.operation)
          ? own[head.data.operation]
          : undefined;
  if (!operation)
    throw issue(
      slot === 'connect' || slot === 'update' ? 'kind' : 'operation',
      `A ${head.data.kind} channel has no ${head.data.operation ?? slot} operation.`,
    );
  return { operation, input: raw };
}

/** The procedure's input parser: the kind and operation found, the rest checked by their schema. */
export const operationInput =
  <T>(slot: Slot | Named) =>
  (raw: unknown): T => {
    const { operation, input } = operationOf(slot, raw);
    const parsed = operation.input.safeParse(input);
    if (!parsed.success) throw parsed.error;
    const { kind, operation: name } = raw as { kind: string; operation?: string };
    return { ...(parsed.data as object), kind, ...(name === undefined ? {} : { operation: name }) } as T;
  };

/** Carries out a checked operation in the project (`operationInput` parsed its input). */
export function runOperation<S extends Slot>(
  db: Db,
  projectId: number,
  slot: S,
  input: { kind: string },
): Promise<SlotOperationOutput<S>>;
export function runOperation<N extends Named>(
  db: Db,
  projectId: number,
  slot: N,
  input: { kind: string },
): Promise<NamedOperationOutput<N>>;
export function runOperation(db: Db, projectId: number, slot: Slot | Named, input: { kind: string }) {
  const { operation } = operationOf(slot, input);
  return operation.run(db, projectId, input);
}
