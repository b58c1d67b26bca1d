import type { z } from 'zod';
import type { PrismaClient } from '@/server/db/client-type';
import type { Plan } from '@/server/db/generated/client';
import type { AuthenticatedKey } from '@/server/projects/api-keys';
import type { LocatingField } from './request-params';

export interface ApiContext {
  db: PrismaClient;
  projectId: number;
  plan: Plan;
  key: AuthenticatedKey;
}

/**
 * One public API action: its documented methods, its input schema (the same zod schema
 * validates requests and generates the OpenAPI document), and a thin handler over server/.
 */
export interface ApiAction<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Documented methods; universal-webhook mode accepts GET and POST for every action. */
  methods: readonly ('GET' | 'POST')[];
  summary: string;
  description?: string;
  input: S;
  /** A request body (or query) that works, for the reference page. */
  example: Record<string, unknown>;
  /** Extra payload keys of the success answer, for the reference page. */
  responseExample: Record<string, unknown>;
  /**
   * Its own parameters that locate the client instead of client_id, as universal-webhook mode's
   * identifiers do for every client method (callback's `client_phone`, locate-client.ts).
   */
  clientLocators?: Partial<Record<LocatingField, string>>;
  handle(ctx: ApiContext, input: z.infer<S>): Promise<Record<string, unknown>>;
}

export function defineAction<S extends z.ZodType>(action: ApiAction<S>): ApiAction<S> {
  return action;
}
