import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Interception, interrupted } from '@/server/testing/intercepted';

/**
 * The Instagram messaging API (Meta's Graph API) on 127.0.0.1 for tests, written from Meta's
 * published documentation: `GET /{version}/{ig-user-id}?fields=username,name` (the account),
 * `POST /{version}/{ig-user-id | me}/messages` with a Bearer token and its limits (a text of
 * 1,000 bytes, 13 quick replies of 20-character titles, attachments by URL; sender actions), the 24-hour
 * window and the HUMAN_AGENT tag's 7 days (code 10, subcode 2534022, as the API answers), a
 * recipient who never wrote (100, 2534014), token errors (190), the app's rate limit (613),
 * `POST /me/subscribed_apps`, the User Profile API (`GET /{igsid}?fields=…` with
 * is_user_follow_business, only for a person who wrote to the account: 230 otherwise), the
 * webhook subscription handshake and signed webhook deliveries (`object: instagram`: messages,
 * postbacks, story replies and mentions, reads, comments on posts), and a comment's one private
 * reply (`recipient: {comment_id}`, text only, within 7 days; the second's error code is the
 * fake's own guess, 10 with subcode 2534023). Files it serves stand for Instagram's CDN.
 * Every request is recorded.
 *
 * Sources of what the answers are:
 * - the text's limit is 1,000 **bytes** of UTF-8, not characters, as exileum/meta-mcp#251
 *   enforces it ("max 1000 UTF-8 bytes per Meta's Instagram Messaging API") and the
 *   instagram_connect gem's Media::Limits notes it ("BYTES, not characters … Meta rejects the
 *   whole send"; rubydoc.info/gems/instagram_connect); past it the whole message is refused as a parameter error: 400, code 100,
 *   OAuthException, worded as the Send API words a text over its length (nyaruka/rapidpro#644:
 *   "Length of param message[text] must be less or equal to …"; the exact words are the fake's);
 * - throttling (`trouble` 4, 17, 32, 613; `perSecond` answers 613): Meta's rate-limiting page
 *   (developers.facebook.com/docs/graph-api/overview/rate-limiting) lists application (4),
 *   account (17), page (32) and custom (613) throttling, and its error-handling page
 *   (developers.facebook.com/docs/graph-api/guides/error-handling) says to wait and retry them;
 *   each answered 400, OAuthException, `is_transient: true`, in the words seen in the wild:
 *   "(#4) Application request limit reached" (dearhive/MashShare#70), "(#17) User request limit
 *   reached" (hellowin/kanca#225), "(#613) Calls to this api have exceeded the rate limit."; 32's
 *   "(#32) Page request limit reached" is worded after them;
 * - what a person sees on desktop (`seenOn`): no quick replies, as Meta's Quick Replies page for
 *   Instagram says ("This feature is currently not available on desktop"); its Button and
 *   Generic Template pages say the same of templates ("not available in the web version"), so
 *   the fake takes none (an attachment's type is image, video, audio or file);
 * - outages (`trouble` 1, 2): the error-handling page's "API Unknown" (1, "possibly a temporary
 *   issue due to downtime") and "API Service" (2, "temporary issue due to downtime"), answered
 *   500; 2's words and `is_transient` as Meta answered them for about an hour in
 *   facebook/facebook-java-business-sdk#319 ("An unexpected error has occurred. Please retry your
 *   request later.").
 */

export const FAKE_VERSION = 'v21.0';

export interface FakeAccount {
  accountId: string;
  username: string;
  name: string;
  token: string;
  appSecret: string;
}

export interface FakeUser {
  /** The person's Instagram-scoped id (one per person here, as with one account). */
  igsid: string;
  username: string;
  name: string;
  followerCount: number;
  followsBusiness: boolean;
  businessFollowsUser: boolean;
}

export interface SentMessage {
  mid: string;
  accountId: string;
  recipient: string;
  messagingType: string;
  tag?: string;
  /** The comment a private reply answered. */
  commentId?: string;
  message: { text?: string; quick_replies?: { title: string; payload: string }[]; attachment?: unknown };
  at: number;
}

/** One message as a person's device shows it. */
export interface Seen {
  text?: string;
  /** Buttons to tap: the quick replies' titles, on the phone only. */
  buttons: string[];
  attachment?: unknown;
}

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  status: number;
  answer: unknown;
}

export interface InboundInput {
  text?: string;
  quickReplyPayload?: string;
  attachments?: { type: string; url: string }[];
  storyReply?: { id: string; url: string };
  storyMention?: string;
  postback?: { title: string; payload: string };
  /** The person's time of it (the fake's clock by default). */
  at?: number;
}

export interface FakeInstagram {
  url: string;
  version: string;
  calls: RecordedCall[];
  intercept: ((request: { method: string; path: string; body: unknown }) => Interception) | null;
  /** Calls an account's token may make in any second before 613 (null: no limit). */
  perSecond: number | null;
  /**
   * Meta in trouble: the next `times` sends (`POST …/messages`) are answered this code's error
   * (Infinity: until set back to null), a throttle or an outage.
   */
  trouble: { code: TroubleCode; times: number } | null;
  subscribedFields: Map<string, string>;
  /** The sender actions (typing_on, mark_seen) the account sent, in order. */
  senderActions: { recipient: string; action: string }[];
  addAccount(input?: Partial<FakeAccount>): FakeAccount;
  addUser(input?: Partial<FakeUser>): FakeUser;
  user(igsid: string): FakeUser;
  /** The real handshake: GET with hub.mode, hub.verify_token and hub.challenge; true when echoed. */
  setWebhook(accountId: string, webhook: { url: string; verifyToken: string }): Promise<boolean>;
  /** A person's message to the account, delivered signed; opens the window and gives consent. */
  sendInbound(
    accountId: string,
    igsid: string,
    input: InboundInput,
  ): Promise<{ status: number; mid: string }>;
  /** A person's comment on the account's post (a `comments` change), delivered signed; gives no consent. */
  sendComment(
    accountId: string,
    igsid: string,
    text: string,
    options?: { at?: number },
  ): Promise<{ status: number; commentId: string }>;
  /** The person read the account's message (a `read` event). */
  markRead(accountId: string, igsid: string, mid: string): Promise<{ status: number }>;
  /** POSTs any payload to the account's webhook, signed unless `signature` is given (null: none). */
  deliver(
    accountId: string,
    payload: unknown,
    options?: { signature?: string | null },
  ): Promise<{ status: number; body: string }>;
  /** What the account sent a person, in order. */
  sent(accountId: string, igsid: string): SentMessage[];
  /**
   * What the person sees of it on their device: the phone shows texts with their quick replies
   * (as buttons) and attachments; desktop Instagram and the web show no quick replies.
   */
  seenOn(accountId: string, igsid: string, device: 'phone' | 'desktop'): Seen[];
  /** Serves bytes at an address standing for Instagram's CDN. */
  addFile(bytes: Uint8Array, mimeType: string): string;
  close(): Promise<void>;
}

class GraphFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

const fbtrace = () => randomBytes(8).toString('base64url');
const failure = (status: number, code: number, message: string, subcode?: number, type = 'OAuthException') =>
  new GraphFailure(status, {
    message,
    type,
    code,
    ...(subcode ? { error_subcode: subcode } : {}),
    fbtrace_id: fbtrace(),
  });
const param = (message: string, subcode?: number) => failure(400, 100, message, subcode);

/** A text's limit, in UTF-8 bytes (not characters). */
export const TEXT_LIMIT_BYTES = 1000;
export const QUICK_REPLIES_LIMIT = 13;
export const TITLE_LIMIT = 20;
const DAY = 24 * 3600_000;

/** Meta's answers when it is in trouble (sources in the header): its status and message by code. */
export const TROUBLE = {
  4: [400, '(#4) Application request limit reached'],
  17: [400, '(#17) User request limit reached'],
  32: [400, '(#32) Page request limit reached'],
  613: [400, '(#613) Calls to this api have exceeded the rate limit.'],
  1: [500, 'An unknown error has occurred.'],
  2: [500, 'An unexpected error has occurred. Please retry your request later.'],
} as const satisfies Record<number, readonly [number, string]>;
export type TroubleCode = keyof typeof TROUBLE;

const troubleFailure = (code: TroubleCode) =>
  new GraphFailure(TROUBLE[code][0], {
    message: TROUBLE[code][1],
    type: 'OAuthException',
    is_transient: true,
    code,
    fbtrace_id: fbtrace(),
  });

export async function startFakeInstagram(
  options: {
    now?: () => number /** A fixed port (the browser tests'); any free one by default. */;
    port?: number;
  } = {},
): Promise<FakeInstagram> {
  const now = options.now ?? Date.now;
  const accounts = new Map<string, FakeAccount>();
  const users = new Map<string, FakeUser>();
  const webhooks = new Map<string, { url: string; verifyToken: string }>();
  /** accountId → igsid → the person's last message time. */
  const lastInbound = new Map<string, Map<string, number>>();
  const sends: SentMessage[] = [];
  const files = new Map<string, { bytes: Uint8Array; mimeType: string }>();
  const comments = new Map<string, { accountId: string; igsid: string; at: number; replied: boolean }>();
  const callTimes = new Map<string, number[]>();
  let counter = 0;

  function accountOf(req: http.IncomingMessage): FakeAccount {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token)
      throw failure(
        400,
        2500,
        'An active access token must be used to query information about the current user.',
      );
    const account = [...accounts.values()].find((a) => a.token === token);
    if (!account) throw failure(400, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (api.perSecond !== null) {
      const times = (callTimes.get(account.accountId) ?? []).filter((t) => t > Date.now() - 1000);
      times.push(Date.now());
      callTimes.set(account.accountId, times);
      if (times.length > api.perSecond) throw troubleFailure(613);
    }
    return account;
  }

  function validate(message: unknown): SentMessage['message'] {
    if (!message || typeof message !== 'object') throw param('(#100) The parameter message is required');
    const m = message as Record<string, unknown>;
    if (m.text !== undefined && m.attachment !== undefined)
      throw param('(#100) Only one of text or attachment may be set');
    if (m.attachment !== undefined) {
      const a = m.attachment as { type?: string; payload?: { url?: string } };
      if (!['image', 'video', 'audio', 'file'].includes(a.type ?? ''))
        throw param('(#100) param message[attachment][type] must be one of {IMAGE, VIDEO, AUDIO, FILE}');
      if (!/^https?:\/\//.test(a.payload?.url ?? ''))
        throw param('(#100) Param message[attachment][payload][url] must be a valid URL');
      return { attachment: a };
    }
    if (typeof m.text !== 'string' || !m.text) throw param('(#100) The parameter message[text] is required');
    if (Buffer.byteLength(m.text, 'utf8') > TEXT_LIMIT_BYTES)
      throw param(
        `(#100) Length of param message[text] must be less than or equal to ${TEXT_LIMIT_BYTES} bytes`,
      );
    const replies = m.quick_replies as
      | { content_type?: string; title?: string; payload?: string }[]
      | undefined;
    if (replies !== undefined) {
      if (!Array.isArray(replies) || replies.length > QUICK_REPLIES_LIMIT)
        throw param(
          `(#100) param message[quick_replies] must be an array with at most ${QUICK_REPLIES_LIMIT} elements`,
        );
      for (const r of replies) {
        if (r.content_type !== 'text')
          throw param('(#100) param message[quick_replies][content_type] must be text');
        if (!r.title || r.title.length > TITLE_LIMIT)
          throw param(
            `(#100) Length of param message[quick_replies][title] must be less than or equal to ${TITLE_LIMIT}`,
          );
        if (!r.payload || r.payload.length > 1000)
          throw param(
            '(#100) param message[quick_replies][payload] must be a non-empty string of at most 1000 characters',
          );
      }
    }
    return {
      text: m.text,
      ...(replies ? { quick_replies: replies as { title: string; payload: string }[] } : {}),
    };
  }

  function sendMessage(account: FakeAccount, body: Record<string, unknown>): [number, unknown] {
    const commentId = (body.recipient as { comment_id?: string } | undefined)?.comment_id;
    if (commentId) return privateReply(account, commentId, body.message);
    const recipient = (body.recipient as { id?: string } | undefined)?.id;
    if (!recipient) throw param('(#100) The parameter recipient is required');
    if (body.sender_action !== undefined) {
      if (!['typing_on', 'typing_off', 'mark_seen'].includes(String(body.sender_action)))
        throw param('(#100) param sender_action must be one of {MARK_SEEN, TYPING_ON, TYPING_OFF}');
      if (!lastInbound.get(account.accountId)?.has(recipient))
        throw param('(#100) No matching user found', 2534014);
      api.senderActions.push({ recipient, action: String(body.sender_action) });
      return [200, { recipient_id: recipient }];
    }
    const message = validate(body.message);
    const type = String(body.messaging_type ?? 'RESPONSE');
    const tag = body.tag as string | undefined;
    if (!['RESPONSE', 'UPDATE', 'MESSAGE_TAG'].includes(type))
      throw param('(#100) param messaging_type must be one of {RESPONSE, UPDATE, MESSAGE_TAG}');
    if (type === 'MESSAGE_TAG' && tag !== 'HUMAN_AGENT')
      throw param('(#100) Instagram messaging supports only the HUMAN_AGENT message tag');
    const last = lastInbound.get(account.accountId)?.get(recipient);
    if (last === undefined) throw param('(#100) No matching user found', 2534014);
    const age = now() - last;
    const allowed = type === 'MESSAGE_TAG' ? age < 7 * DAY : age < DAY;
    if (!allowed) throw failure(400, 10, '(#10) This message is sent outside of allowed window.', 2534022);
    const mid = `aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOj${randomBytes(12).toString('hex')}`;
    sends.push({
      mid,
      accountId: account.accountId,
      recipient,
      messagingType: type,
      ...(tag ? { tag } : {}),
      message,
      at: now(),
    });
    return [200, { recipient_id: recipient, message_id: mid }];
  }

  /** One private reply per comment, text only, within 7 days of it; no window opens. */
  function privateReply(account: FakeAccount, commentId: string, message: unknown): [number, unknown] {
    const c = comments.get(commentId);
    if (!c || c.accountId !== account.accountId)
      throw param('(#100) Invalid parameter: no comment with this id', 33);
    const m = validate(message);
    if (m.attachment || m.quick_replies) throw param('(#100) A private reply can only be a text message');
    if (c.replied) throw failure(400, 10, '(#10) This comment already has its private reply.', 2534023);
    if (now() - c.at >= 7 * DAY)
      throw failure(400, 10, '(#10) This message is sent outside of allowed window.', 2534022);
    c.replied = true;
    const mid = `aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOj${randomBytes(12).toString('hex')}`;
    sends.push({
      mid,
      accountId: account.accountId,
      recipient: c.igsid,
      messagingType: 'PRIVATE_REPLY',
      commentId,
      message: m,
      at: now(),
    });
    return [200, { recipient_id: c.igsid, message_id: mid }];
  }

  function route(req: http.IncomingMessage, url: URL, body: unknown): [number, unknown] {
    const parts = url.pathname.split('/').filter(Boolean);
    if (!/^v\d+\.\d+$/.test(parts[0] ?? '')) throw param('(#100) Unknown path components', 2500);
    const account = accountOf(req);
    const [, node, edge] = parts;
    const self = node === 'me' || node === account.accountId;
    if (req.method === 'POST' && self && edge === 'messages') {
      if (api.trouble && api.trouble.times > 0) {
        api.trouble.times--;
        throw troubleFailure(api.trouble.code);
      }
      return sendMessage(account, body as Record<string, unknown>);
    }
    if (req.method === 'POST' && self && edge === 'subscribed_apps') {
      const fields = url.searchParams.get('subscribed_fields');
      if (!fields) throw param('(#100) The parameter subscribed_fields is required');
      api.subscribedFields.set(account.accountId, fields);
      return [200, { success: true }];
    }
    if (req.method === 'GET' && !edge) {
      if (self) return [200, { id: account.accountId, username: account.username, name: account.name }];
      const user = users.get(node);
      if (!user || user.igsid !== node)
        throw param(`(#100) Unsupported get request. Object with ID '${node}' does not exist`, 33);
      if (!lastInbound.get(account.accountId)?.has(node))
        throw failure(400, 230, '(#230) User consent is required to access user profile');
      const all: Record<string, unknown> = {
        id: user.igsid,
        name: user.name,
        username: user.username,
        profile_pic: `${api.url}/cdn/profile-${user.igsid}.jpg`,
        follower_count: user.followerCount,
        is_user_follow_business: user.followsBusiness,
        is_business_follow_user: user.businessFollowsUser,
        is_verified_user: false,
      };
      const fields = (url.searchParams.get('fields') ?? 'name').split(',');
      return [
        200,
        Object.fromEntries([['id', user.igsid], ...fields.filter((f) => f in all).map((f) => [f, all[f]])]),
      ];
    }
    throw param(`(#100) Unsupported ${req.method} request.`, 33);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        // Not JSON: recorded as text.
      }
      const fate = api.intercept
        ? api.intercept({ method: req.method ?? 'GET', path: url.pathname, body })
        : 'process';
      if (interrupted(fate, req, res)) return;
      const file = /^\/cdn\/([\w.-]+)$/.exec(url.pathname)?.[1];
      if (file) {
        const f = files.get(file);
        res.writeHead(f ? 200 : 404, { 'content-type': f?.mimeType ?? 'text/plain' });
        res.end(f ? Buffer.from(f.bytes) : 'Not Found');
        return;
      }
      let status: number;
      let answer: unknown;
      try {
        [status, answer] = route(req, url, body);
      } catch (error) {
        if (!(error instanceof GraphFailure)) throw error;
        status = error.status;
        answer = { error: error.body };
      }
      api.calls.push({ method: req.method ?? 'GET', path: url.pathname + url.search, body, status, answer });
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  async function post(accountId: string, payload: unknown, signature?: string | null) {
    const account = accounts.get(accountId);
    const hook = webhooks.get(accountId);
    if (!account || !hook) throw new Error(`the account ${accountId} has no webhook; call setWebhook first`);
    const raw = JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const sig =
      signature === undefined
        ? `sha256=${createHmac('sha256', account.appSecret).update(raw).digest('hex')}`
        : signature;
    if (sig !== null) headers['x-hub-signature-256'] = sig;
    const res = await fetch(hook.url, { method: 'POST', headers, body: raw });
    return { status: res.status, body: await res.text() };
  }

  const envelope = (accountId: string, igsid: string, at: number, event: Record<string, unknown>) => ({
    object: 'instagram',
    entry: [
      {
        id: accountId,
        time: at,
        messaging: [{ sender: { id: igsid }, recipient: { id: accountId }, timestamp: at, ...event }],
      },
    ],
  });

  const api: FakeInstagram = {
    url: `http://127.0.0.1:${port}`,
    version: FAKE_VERSION,
    calls: [],
    intercept: null,
    perSecond: null,
    trouble: null,
    subscribedFields: new Map(),
    senderActions: [],
    addAccount(input = {}) {
      counter++;
      const account: FakeAccount = {
        accountId: input.accountId ?? String(17_841_400_000_000_000 + counter),
        username: input.username ?? `shop_${counter}`,
        name: input.name ?? `Shop ${counter}`,
        token: input.token ?? `EAAG${randomBytes(24).toString('base64url')}`,
        appSecret: input.appSecret ?? randomBytes(16).toString('hex'),
      };
      accounts.set(account.accountId, account);
      return account;
    },
    addUser(input = {}) {
      counter++;
      const user: FakeUser = {
        igsid: input.igsid ?? String(6_000_000_000_000_000 + counter),
        username: input.username ?? `person.${counter}`,
        name: input.name ?? `Person ${counter}`,
        followerCount: input.followerCount ?? 42,
        followsBusiness: input.followsBusiness ?? false,
        businessFollowsUser: input.businessFollowsUser ?? false,
      };
      users.set(user.igsid, user);
      return user;
    },
    user(igsid) {
      const user = users.get(igsid);
      if (!user) throw new Error(`no user ${igsid}`);
      return user;
    },
    async setWebhook(accountId, webhook) {
      const challenge = String(1_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
      const url = new URL(webhook.url);
      url.searchParams.set('hub.mode', 'subscribe');
      url.searchParams.set('hub.challenge', challenge);
      url.searchParams.set('hub.verify_token', webhook.verifyToken);
      const res = await fetch(url);
      const ok = res.status === 200 && (await res.text()) === challenge;
      if (ok) webhooks.set(accountId, webhook);
      return ok;
    },
    async sendInbound(accountId, igsid, input) {
      const at = input.at ?? now();
      const mid = `aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjI${randomBytes(12).toString('hex')}`;
      let event: Record<string, unknown>;
      if (input.postback) event = { postback: { mid, ...input.postback } };
      else {
        const attachments = [
          ...(input.attachments ?? []).map((a) => ({ type: a.type, payload: { url: a.url } })),
          ...(input.storyMention ? [{ type: 'story_mention', payload: { url: input.storyMention } }] : []),
        ];
        event = {
          message: {
            mid,
            ...(input.text !== undefined ? { text: input.text } : {}),
            ...(attachments.length ? { attachments } : {}),
            ...(input.quickReplyPayload ? { quick_reply: { payload: input.quickReplyPayload } } : {}),
            ...(input.storyReply ? { reply_to: { story: input.storyReply } } : {}),
          },
        };
      }
      const seen = lastInbound.get(accountId) ?? new Map<string, number>();
      seen.set(igsid, at);
      lastInbound.set(accountId, seen);
      const { status } = await post(accountId, envelope(accountId, igsid, at, event));
      return { status, mid };
    },
    async sendComment(accountId, igsid, text, opts = {}) {
      const at = opts.at ?? now();
      const commentId = String(17_900_000_000_000_000 + ++counter);
      comments.set(commentId, { accountId, igsid, at, replied: false });
      const user = users.get(igsid);
      const { status } = await post(accountId, {
        object: 'instagram',
        entry: [
          {
            id: accountId,
            time: Math.floor(at / 1000),
            changes: [
              {
                field: 'comments',
                value: {
                  from: { id: igsid, ...(user ? { username: user.username } : {}) },
                  media: { id: '17887498072083520', media_product_type: 'FEED' },
                  id: commentId,
                  text,
                },
              },
            ],
          },
        ],
      });
      return { status, commentId };
    },
    async markRead(accountId, igsid, mid) {
      return post(accountId, envelope(accountId, igsid, now(), { read: { mid } }));
    },
    deliver: (accountId, payload, opts = {}) => post(accountId, payload, opts.signature),
    sent: (accountId, igsid) => sends.filter((s) => s.accountId === accountId && s.recipient === igsid),
    seenOn: (accountId, igsid, device) =>
      api.sent(accountId, igsid).map(({ message: { text, quick_replies, attachment } }) => ({
        ...(text !== undefined ? { text } : {}),
        ...(attachment !== undefined ? { attachment } : {}),
        buttons: device === 'phone' ? (quick_replies ?? []).map((r) => r.title) : [],
      })),
    addFile(bytes, mimeType) {
      const id = `f${++counter}.${mimeType.split('/')[1] ?? 'bin'}`;
      files.set(id, { bytes, mimeType });
      return `${api.url}/cdn/${id}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return api;
}
