import { z } from 'zod';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { MAX_FILE_BYTES } from '@/lib/files/file-types';
import { finalUtterance, type Utterance } from '@/lib/telephony/transcript';
import type { GatherResult, Verb } from '@/lib/telephony/verbs';
import type { TelephonyCredentials } from './channel-service';
import { jambonzApi } from './rest-api';
import { SIGNATURE_HEADER, validSignature } from './signature';

/**
 * A voice gateway's protocol behind one interface (docs/channels/telephony.md): how its
 * webhooks are checked and read, how a turn's verbs answer them, and how its REST API places
 * and redirects calls. jambonz implements it; another protocol (TwiML) would be another
 * implementation, rendering the same verbs as its own markup. The turn, the call state and
 * the inbound updates do not depend on it.
 */
export interface TelephonyProvider {
  /** A webhook's call information, once its signature checks with the channel's secret. */
  readHook(
    body: Uint8Array,
    headers: Headers,
    credentials: TelephonyCredentials,
    nowSeconds: number,
  ): CallInfo | 'unsigned' | 'malformed';
  /** A turn's verbs as the webhook's answer. */
  answer(verbs: Verb[]): Response;
  /**
   * Places an outbound call whose webhooks are `hooks`. A failure that may pass is `transient`:
   * `not_placed` when the gateway placed nothing (busy, rate limited), `maybe_placed` when the
   * call may be ringing with its sid lost (a server error, a connection lost): `placedCalls`
   * tells.
   */
  placeCall(
    credentials: TelephonyCredentials,
    call: { from: string; to: string; callHook: string; statusHook: string; tag: object },
  ): Promise<
    | { ok: true; sid: string }
    | {
        ok: false;
        error: string;
        transient?: 'not_placed' | 'maybe_placed';
        /** How long the gateway asked to wait before the next request. */
        retryAfterMs?: number;
      }
  >;
  /**
   * The account's outbound calls from `from` to `to` that the gateway still knows (jambonz: while
   * they last and an hour after), with their status; not the legs of transfers.
   */
  placedCalls(
    credentials: TelephonyCredentials,
    call: { from: string; to: string },
  ): Promise<{ ok: true; calls: { sid: string; status: string }[] } | { ok: false; error: string }>;
  /** Points a live call at `url` for its next verbs (live call control); `gone` when it is over. */
  redirectCall(
    credentials: TelephonyCredentials,
    callSid: string,
    url: string,
  ): Promise<{ ok: true } | { ok: false; gone: boolean; error: string }>;
  /**
   * A finished call's recording from the gateway's storage, by its sid and the day (UTC) it
   * started; `notYet` while it is not there (not uploaded yet, or never recorded).
   */
  fetchRecording(
    credentials: TelephonyCredentials,
    callSid: string,
    startedAt: Date,
  ): Promise<
    | { ok: true; bytes: Uint8Array; mimeType: string; name: string }
    | { ok: false; notYet: boolean; error: string }
  >;
}

/** What a call's webhook says, whatever the protocol. */
export interface CallInfo {
  callSid: string;
  /**
   * The call this one is a leg of (a transfer's dial places one): its webhooks are the parent
   * call's business, not a call of the number it went to.
   */
  parentCallSid: string | null;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  /** The call's status (the status webhook). */
  status: string;
  /** How a transfer's dial ended (its actionHook): completed, busy, no-answer, failed. */
  dialStatus: string;
  /** A gather's result (its actionHook). */
  gather: GatherResult;
  /** A transcriptionHook's final utterance (null: interim, empty, or not a transcription). */
  utterance: Utterance | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** `GET /Accounts/{sid}/Calls`: the fields of each call this channel reads. */
const listedCallsSchema = z.array(
  z.object({
    call_sid: z.string(),
    from: z.string().optional(),
    call_status: z.string().optional(),
    parent_call_sid: z.string().optional(),
  }),
);

export const jambonz: TelephonyProvider = {
  readHook(body, headers, { webhookSecret }, nowSeconds) {
    if (!validSignature(body, headers.get(SIGNATURE_HEADER), webhookSecret, nowSeconds)) return 'unsigned';
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(new TextDecoder().decode(body));
    } catch {
      return 'malformed';
    }
    if (!raw || typeof raw !== 'object' || !text(raw.call_sid)) return 'malformed';
    return {
      callSid: text(raw.call_sid),
      parentCallSid: text(raw.parent_call_sid) || null,
      direction: raw.direction === 'outbound' ? 'outbound' : 'inbound',
      from: text(raw.from),
      to: text(raw.to),
      status: text(raw.call_status),
      dialStatus: text(raw.dial_call_status),
      gather: {
        reason: text(raw.reason),
        digits: text(raw.digits),
        speech: raw.speech as GatherResult['speech'],
      },
      utterance: finalUtterance(raw.speech),
    };
  },
  answer: (verbs) =>
    new Response(JSON.stringify(verbs), { status: 200, headers: { 'content-type': 'application/json' } }),
  async placeCall({ apiUrl, apiKey, accountSid, applicationSid }, call) {
    const placed = await jambonzApi(apiUrl, apiKey).post<{ sid?: string }>(`Accounts/${accountSid}/Calls`, {
      application_sid: applicationSid,
      from: call.from,
      to: { type: 'phone', number: call.to },
      call_hook: { url: call.callHook, method: 'POST' },
      call_status_hook: { url: call.statusHook, method: 'POST' },
      tag: call.tag,
    });
    if (!placed.ok)
      return {
        ok: false,
        error: `jambonz did not place the call: ${placed.description}`,
        // A 429 or 480 comes before anything is placed; a 500 or no answer may come after.
        ...(placed.reason === 'unavailable' && {
          transient: placed.status === 429 || placed.status === 480 ? 'not_placed' : 'maybe_placed',
          retryAfterMs: placed.retryAfterMs,
        }),
      };
    if (!placed.result.sid)
      return { ok: false, error: 'jambonz did not place the call: no call sid in its answer' };
    return { ok: true, sid: placed.result.sid };
  },
  async placedCalls({ apiUrl, apiKey, accountSid }, call) {
    const query = new URLSearchParams({ direction: 'outbound', to: call.to });
    const listed = await jambonzApi(apiUrl, apiKey).get<unknown>(`Accounts/${accountSid}/Calls?${query}`);
    if (!listed.ok) return { ok: false, error: `jambonz did not list its calls: ${listed.description}` };
    const calls = listedCallsSchema.safeParse(listed.result);
    if (!calls.success) return { ok: false, error: 'jambonz did not list its calls: not a list of calls' };
    return {
      ok: true,
      calls: calls.data
        .filter((c) => !c.parent_call_sid && phoneDigits(c.from ?? '') === phoneDigits(call.from))
        .map((c) => ({ sid: c.call_sid, status: c.call_status ?? '' })),
    };
  },
  async redirectCall({ apiUrl, apiKey, accountSid }, callSid, url) {
    const redirected = await jambonzApi(apiUrl, apiKey).put(`Accounts/${accountSid}/Calls/${callSid}`, {
      call_hook: { url, method: 'POST' },
    });
    if (redirected.ok) return { ok: true };
    return { ok: false, gone: redirected.reason === 'not_found', error: redirected.description };
  },
  async fetchRecording({ apiUrl, apiKey, accountSid }, callSid, startedAt) {
    const day = startedAt.toISOString().slice(0, 10).split('-').join('/');
    const path = `Accounts/${accountSid}/RecentCalls/${callSid}/record/${day}/mp3`;
    const got = await jambonzApi(apiUrl, apiKey).download(path, MAX_FILE_BYTES);
    if (got.ok)
      return { ok: true, bytes: got.result.bytes, mimeType: 'audio/mpeg', name: `call-${callSid}.mp3` };
    return { ok: false, notYet: got.reason === 'not_found', error: got.description };
  },
};

/** The channel's provider: jambonz, the one implemented. */
export const providerOf = (_channel: { credentials: unknown }): TelephonyProvider => jambonz;
