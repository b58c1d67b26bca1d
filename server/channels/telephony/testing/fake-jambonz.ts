import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A jambonz voice gateway on 127.0.0.1 for tests, written from the jambonz documentation:
 * the REST API (`Authorization: Bearer <api key>`; `GET /v1/Applications/{sid}`,
 * `POST /v1/Accounts/{sid}/Calls` answering 201 `{sid}`, `PUT /v1/Accounts/{sid}/Calls/{sid}`
 * for live call control; errors as `{msg}` with 400, 401, 404 and 422), and the webhook
 * side of a call: the application's call_hook POSTed with the call's information and signed
 * (`Jambonz-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`), its answer's verbs carried
 * out in order (`say`, `pause`, `gather` waiting for the test to press digits or speak,
 * `redirect`, `dial` connected until the test ends it, with a nested `transcribe` posting the
 * utterances the test has the caller and the operator say to its transcriptionHook, `hangup`;
 * a call whose verbs run out hangs up), and every status change POSTed to the
 * call_status_hook (its fields only: jambonz sends neither a recording nor a transcript there).
 * Recordings are in the account's storage once the test says so, read back by
 * `GET /v1/Accounts/{sid}/RecentCalls/{call}/record/{YYYY}/{MM}/{DD}/{mp3|wav}` (the day the
 * call started, UTC; 404 until it is uploaded). Every REST request and every verb is recorded.
 *
 * What jambonz does that the channel must cope with, each from jambonz's own source:
 * - A gather that hears nothing calls its actionHook with `reason: "timeout"` (and neither
 *   digits nor speech): jambonz-feature-server `lib/tasks/gather.js` (`_resolve`,
 *   `performAction({reason: 'timeout'})`). The test's `silence()`.
 * - A `dial` places a child leg whose own status changes (trying, ringing, then in-progress,
 *   busy, no-answer or failed, and completed) are POSTed to the application's
 *   call_status_hook, with the parent's sid as `parent_call_sid`, `direction: "outbound"`, from
 *   the dial's callerId to the number dialed: jambonz-feature-server
 *   `lib/utils/place-outdial.js` (`_notifyCallStatusChange` posts the child's
 *   `callInfo.toJSON()`), `lib/session/call-info.js` (a child's `parentCallSid`).
 * - When the dial ends, its actionHook gets the parent call's fields with `dial_call_status`
 *   (`completed` after a conversation; `busy` on SIP 486/603, `no-answer` when the ring
 *   timer ends it, 487; `failed` otherwise), `dial_sip_status` and `dial_call_sid`, and its
 *   answer's verbs go on in the parent call: `lib/tasks/dial.js` (`this.results`,
 *   `performAction`). The test's `nextDial()` makes the next dial go unanswered.
 * - `POST /Calls`: jambonz-api-server `app.js` rate limits every request before anything
 *   else (express-rate-limit, 600 requests per 5 minutes by default: 429 with a text body
 *   "Too many requests, please try again later." and `Retry-After` in seconds), and
 *   `lib/routes/api/accounts.js` answers 480 `{msg: "no available feature servers at this
 *   time"}` before placing anything, and a bare 500 ("Internal Server Error") when the
 *   feature server's answer to its createCall is not a 201, which may come after the feature
 *   server sent the INVITE (jambonz-feature-server `lib/http-routes/api/create-call.js`): the
 *   call may be placed with nobody told its sid; a connection lost before the answer leaves
 *   the same doubt. The test's `nextCallAnswers()`.
 * - `GET /v1/Accounts/{sid}/Calls` (`?direction=&from=&to=&callStatus=`) lists the account's
 *   calls from its realtime store, snake_cased (`call_sid`, `direction`, `from`, `to`,
 *   `call_status`, `parent_call_sid` for a child leg), while they last and for an hour after
 *   they end: jambonz-api-server `lib/routes/api/accounts.js`, @jambonz/realtimedb-helpers
 *   `lib/list-calls.js` and `lib/update-call-status.js` (`MAX_CALL_LIFETIME_AFTER_COMPLETED`).
 *   A call's `tag` is not there: the store keeps no object fields (`filterNullsAndObjects`);
 *   it reaches the webhooks only, as `customerData`. That listing is how a call placed by a
 *   request whose answer was lost is found.
 */

export interface FakeAccount {
  accountSid: string;
  apiKey: string;
  applicationSid: string;
  webhookSecret: string;
}

type Verb = { verb: string } & Record<string, unknown>;

export interface FakeCall {
  sid: string;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  status: string;
  /** What was said, in order (a say's text, a gather's prompt). */
  spoken: string[];
  /** Every verb the app answered, in order. */
  verbs: Verb[];
  /** The gather waiting for the caller, if any. */
  gather: Verb | null;
  dialed: string[];
  /** The dial in progress (the caller is with the operator), if any. */
  transfer: Verb | null;
  hungUp: boolean;
  /** When it started: its recording is filed under this day (UTC). */
  startedAt: Date;
  callHook: string;
  statusHook: string;
  tag: unknown;
  /** A dial's leg: the call it was placed from. */
  parentSid?: string;
  /** The leg of the dial in progress, if any. */
  leg?: FakeCall;
}

/** How the next `POST /Calls` is answered instead of a 201 (see the header for each). */
export type FakeCallAnswer =
  | 'rate-limited'
  | 'no-feature-server'
  | 'error'
  | 'error-after-placing'
  | 'lost-after-placing';

/** A dial's leg that nobody answered, as its status and the dial's `dial_call_status`. */
export type UnansweredDial = 'busy' | 'no-answer' | 'failed';

export interface FakeJambonz {
  url: string;
  account: FakeAccount;
  /** The application's webhooks (what its settings in the portal say). */
  setApplication(hooks: { callHook: string; statusHook: string }): void;
  /** A call comes in from `from`: the call_hook is asked, its verbs run until a gather or the end. */
  inboundCall(from: string, to?: string): Promise<FakeCall>;
  /** The caller presses keys in answer to the waiting gather. */
  press(call: FakeCall, digits: string): Promise<void>;
  /** The caller says a phrase in answer to the waiting gather. */
  speak(call: FakeCall, transcript: string): Promise<void>;
  /** The caller says nothing: the waiting gather times out (its actionHook, `reason: "timeout"`). */
  silence(call: FakeCall): Promise<void>;
  /** The callee of an outbound call answers. */
  answer(call: FakeCall): Promise<void>;
  /** An outbound call ends unanswered. */
  fail(call: FakeCall, status: 'busy' | 'no-answer' | 'failed'): Promise<void>;
  /** The caller hangs up. */
  hangUp(call: FakeCall): Promise<void>;
  /**
   * During a transfer whose dial transcribes, the caller (channel 1) or the operator (2) says
   * something: the utterance is posted to the transcriptionHook, signed (interim when `final` is
   * false); answers the hook's status.
   */
  say(call: FakeCall, channel: 1 | 2, transcript: string, final?: boolean): Promise<number>;
  /** The operator hangs up: the dial's actionHook is asked for what follows. */
  endTransfer(call: FakeCall): Promise<void>;
  /** The next dial's leg is not answered (`status`): the dial's actionHook is asked at once. */
  nextDial(status: UnansweredDial): void;
  /** The call's recording is uploaded to the account's storage (answered by the REST API from now on). */
  uploadRecording(call: FakeCall, bytes: Uint8Array): void;
  calls(): FakeCall[];
  requests: { method: string; path: string; body: unknown; status: number }[];
  /** Answers the next REST requests 429 (rate limited). */
  limitNext(count: number): void;
  /** The next `POST /Calls` requests are answered so, one each, in order. */
  nextCallAnswers(...answers: FakeCallAnswer[]): void;
  /** A raw signed (or not) POST to one of our hooks, answering its status and body. */
  post(url: string, body: object, signature?: string | null): Promise<{ status: number; body: unknown }>;
  sign(body: string, at?: number): string;
  close(): Promise<void>;
}

export async function startFakeJambonz(): Promise<FakeJambonz> {
  const account: FakeAccount = {
    accountSid: randomUUID(),
    apiKey: `key_${randomUUID().replace(/-/g, '')}`,
    applicationSid: randomUUID(),
    webhookSecret: `wh_${randomUUID().replace(/-/g, '')}`,
  };
  let hooks = { callHook: '', statusHook: '' };
  const calls = new Map<string, FakeCall>();
  const requests: FakeJambonz['requests'] = [];
  const recordings = new Map<string, Uint8Array>();
  let limited = 0;
  const callAnswers: FakeCallAnswer[] = [];
  /** Each call's latest run of verbs: an earlier one stops at its next verb. */
  const running = new WeakMap<FakeCall, number>();
  const dialOutcomes: UnansweredDial[] = [];

  const sign = (body: string, at = Math.floor(Date.now() / 1000)) =>
    `t=${at},v1=${createHmac('sha256', account.webhookSecret).update(`${at}.${body}`).digest('hex')}`;

  async function post(url: string, body: object, signature: string | null | undefined = undefined) {
    const text = JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const sig = signature === undefined ? sign(text) : signature;
    if (sig !== null) headers['jambonz-signature'] = sig;
    const res = await fetch(url, { method: 'POST', headers, body: text });
    const answer = await res.text();
    let parsed: unknown = answer;
    try {
      parsed = JSON.parse(answer);
    } catch {}
    return { status: res.status, body: parsed };
  }

  const info = (call: FakeCall) => ({
    call_sid: call.sid,
    account_sid: account.accountSid,
    application_sid: account.applicationSid,
    direction: call.direction,
    from: call.from,
    to: call.to,
    call_id: `${call.sid}@sip`,
    sip_status: call.status === 'in-progress' ? 200 : 100,
    call_status: call.status,
    caller_name: '',
    ...(call.parentSid ? { parent_call_sid: call.parentSid } : {}),
    ...(call.tag ? { customerData: call.tag } : {}),
  });

  /** A call as `GET /Calls` lists it: the realtime store's fields, no objects (so no tag). */
  const listed = (call: FakeCall) => {
    const { customerData: _tag, caller_name: _name, ...fields } = info(call);
    return fields;
  };

  function newCall(fields: Pick<FakeCall, 'direction' | 'from' | 'to' | 'status'> & Partial<FakeCall>) {
    const call: FakeCall = {
      sid: randomUUID(),
      spoken: [],
      verbs: [],
      gather: null,
      dialed: [],
      transfer: null,
      hungUp: false,
      startedAt: new Date(),
      callHook: hooks.callHook,
      statusHook: hooks.statusHook,
      tag: null,
      ...fields,
    };
    calls.set(call.sid, call);
    return call;
  }

  /** The SIP status a dial's leg ended with (`dial_sip_status`). */
  const SIP_STATUS: Record<UnansweredDial | 'completed', number> = {
    completed: 200,
    busy: 486,
    'no-answer': 487,
    failed: 503,
  };

  async function setStatus(call: FakeCall, status: string) {
    call.status = status;
    if (call.statusHook) await post(call.statusHook, info(call));
  }

  /** Asks a hook for verbs and runs them until a gather waits or the call ends. */
  async function ask(call: FakeCall, url: string, extra: object = {}) {
    const answer = await post(url, { ...info(call), ...extra });
    if (answer.status !== 200 || !Array.isArray(answer.body))
      throw new Error(`the app answered ${answer.status} ${JSON.stringify(answer.body)} to ${url}`);
    await run(call, answer.body as Verb[], url);
  }

  async function run(call: FakeCall, verbs: Verb[], base: string) {
    call.gather = null;
    call.transfer = null;
    // New verbs (live call control's redirect) replace those still running.
    const mine = (running.get(call) ?? 0) + 1;
    running.set(call, mine);
    for (const verb of verbs) {
      if (call.hungUp || running.get(call) !== mine) return;
      call.verbs.push(verb);
      const hook = (h: unknown) =>
        new URL(String(typeof h === 'object' && h ? (h as { url: string }).url : h), base).toString();
      switch (verb.verb) {
        case 'say':
          call.spoken.push(String(verb.text));
          break;
        case 'pause':
          await new Promise((resolve) => setTimeout(resolve, Number(verb.length) * 1000));
          break;
        case 'gather': {
          const prompt = verb.say as { text?: string } | undefined;
          if (prompt?.text) call.spoken.push(prompt.text);
          call.gather = verb;
          return;
        }
        case 'redirect':
          return ask(call, hook(verb.actionHook));
        case 'dial': {
          const targets = verb.target as { number: string }[];
          for (const t of targets) call.dialed.push(t.number);
          const leg = newCall({
            direction: 'outbound',
            from: String(verb.callerId ?? call.from),
            to: targets[0].number,
            status: 'trying',
            parentSid: call.sid,
            callHook: '',
            statusHook: call.statusHook,
          });
          await setStatus(leg, 'trying');
          await setStatus(leg, 'ringing');
          const unanswered = dialOutcomes.shift();
          if (unanswered) {
            leg.hungUp = true;
            await setStatus(leg, unanswered);
            // Without an actionHook the call goes on with the verbs after the dial.
            if (!verb.actionHook) break;
            return ask(call, hook(verb.actionHook), {
              dial_call_status: unanswered,
              dial_sip_status: SIP_STATUS[unanswered],
              dial_call_sid: leg.sid,
            });
          }
          await setStatus(leg, 'in-progress');
          // The caller is with the operator until the test ends the transfer.
          call.transfer = verb;
          call.leg = leg;
          return;
        }
        case 'hangup':
          call.hungUp = true;
          await setStatus(call, 'completed');
          return;
        default:
          throw new Error(`the fake does not know the verb ${verb.verb}`);
      }
    }
    // The verbs ran out: jambonz ends the call.
    if (call.hungUp || running.get(call) !== mine) return;
    call.hungUp = true;
    await setStatus(call, 'completed');
  }

  async function answerGather(call: FakeCall, result: object) {
    const gather = call.gather;
    if (!gather)
      throw new Error(`call ${call.sid} waits for no gather (it said: ${call.spoken.join(' | ')})`);
    const url = new URL(String(gather.actionHook), call.callHook).toString();
    await ask(call, url, result);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        body = { unparsable: text };
      }
      const path = (req.url ?? '').split('?')[0];
      const reply = (status: number, payload: object) => {
        requests.push({ method: req.method ?? '', path, body, status });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const plain = (status: number, payload: string, headers: Record<string, string> = {}) => {
        requests.push({ method: req.method ?? '', path, body, status });
        res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
        res.end(payload);
      };
      const placing = req.method === 'POST' && /^\/v1\/Accounts\/[^/]+\/Calls$/.test(path);
      const answer = placing ? callAnswers.shift() : undefined;
      // express-rate-limit answers before anything else, authentication included.
      const rateLimited = limited > 0 || answer === 'rate-limited';
      if (limited > 0) limited--;
      if (rateLimited)
        return plain(429, 'Too many requests, please try again later.', { 'retry-after': '1' });
      if (answer === 'no-feature-server')
        return reply(480, { msg: 'no available feature servers at this time' });
      if (answer === 'error') return plain(500, 'Internal Server Error');
      if (req.headers.authorization !== `Bearer ${account.apiKey}`)
        return reply(401, { msg: 'Invalid token' });
      const recording =
        /^\/v1\/Accounts\/([^/]+)\/RecentCalls\/([^/]+)\/record\/(\d{4})\/(\d{2})\/(\d{2})\/(mp3|wav)$/.exec(
          path,
        );
      if (recording) {
        const [, accountOf, callSid, yyyy, mm, dd] = recording;
        const call = calls.get(callSid);
        const bytes = recordings.get(callSid);
        const day = call?.startedAt.toISOString().slice(0, 10);
        if (req.method !== 'GET') return reply(405, { msg: 'method not allowed' });
        if (accountOf !== account.accountSid || !call || !bytes || day !== `${yyyy}-${mm}-${dd}`)
          return reply(404, { msg: 'recording not found' });
        requests.push({ method: 'GET', path, body, status: 200 });
        res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': bytes.byteLength });
        res.end(bytes);
        return;
      }
      const m = /^\/v1\/(?:Applications\/([^/]+)|Accounts\/([^/]+)(?:\/Calls(?:\/([^/]+))?)?)$/.exec(path);
      if (!m) return reply(404, { msg: 'not found' });
      const [, appSid, accountSid, callSid] = m;
      if (appSid !== undefined) {
        if (req.method !== 'GET') return reply(405, { msg: 'method not allowed' });
        if (appSid !== account.applicationSid) return reply(404, { msg: 'application not found' });
        return reply(200, {
          application_sid: account.applicationSid,
          account_sid: account.accountSid,
          name: 'Voice bot',
          call_hook: { url: hooks.callHook, method: 'POST' },
          call_status_hook: { url: hooks.statusHook, method: 'POST' },
        });
      }
      if (accountSid !== account.accountSid) return reply(404, { msg: 'account not found' });
      if (req.method === 'POST' && !callSid && path.endsWith('/Calls')) {
        const to = body.to as { type?: string; number?: string } | undefined;
        const callHook = body.call_hook as { url?: string } | string | undefined;
        const hookUrl = typeof callHook === 'string' ? callHook : callHook?.url;
        if (!body.from || !to?.number || to.type !== 'phone')
          return reply(400, { msg: 'from and to ({type: "phone", number}) are required' });
        if (!hookUrl && body.application_sid !== account.applicationSid)
          return reply(422, { msg: 'either call_hook or a valid application_sid is required' });
        const statusHook = body.call_status_hook as { url?: string } | string | undefined;
        const call = newCall({
          direction: 'outbound',
          from: String(body.from),
          to: to.number,
          status: 'queued',
          callHook: hookUrl ?? hooks.callHook,
          statusHook: (typeof statusHook === 'string' ? statusHook : statusHook?.url) ?? hooks.statusHook,
          tag: body.tag ?? null,
        });
        // Placed, and then the answer is lost: a 500 from the API server, or no answer at all.
        if (answer === 'error-after-placing') return plain(500, 'Internal Server Error');
        if (answer === 'lost-after-placing') {
          requests.push({ method: 'POST', path, body, status: 0 });
          return void req.socket.destroy();
        }
        return reply(201, { sid: call.sid });
      }
      if (req.method === 'GET' && !callSid && path.endsWith('/Calls')) {
        const query = new URL(req.url ?? '', 'http://fake').searchParams;
        const filters = { direction: 'direction', from: 'from', to: 'to', callStatus: 'status' } as const;
        return reply(
          200,
          [...calls.values()]
            .filter((c) =>
              Object.entries(filters).every(([param, field]) => {
                const wanted = query.get(param);
                return wanted === null || wanted === c[field];
              }),
            )
            .map(listed),
        );
      }
      if (req.method === 'PUT' && callSid) {
        const call = calls.get(callSid);
        if (!call || call.hungUp) return reply(404, { msg: 'call not found' });
        reply(202, {});
        // Live call control, carried out after the answer as jambonz does.
        const hook = body.call_hook as { url?: string } | string | undefined;
        const url = typeof hook === 'string' ? hook : hook?.url;
        if (url) void ask(call, url).catch((e: Error) => console.error('[fake-jambonz]', e.message));
        else if (body.call_status === 'completed') {
          call.hungUp = true;
          void setStatus(call, 'completed');
        }
        return;
      }
      return reply(405, { msg: 'method not allowed' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    account,
    requests,
    sign,
    post,
    setApplication(h) {
      hooks = h;
    },
    async inboundCall(from, to = '15550001000') {
      const call = newCall({ direction: 'inbound', from, to, status: 'in-progress' });
      await ask(call, hooks.callHook);
      return call;
    },
    press: (call, digits) => answerGather(call, { reason: 'dtmfDetected', digits }),
    speak: (call, transcript) =>
      answerGather(call, {
        reason: 'speechDetected',
        speech: { language_code: 'en-US', is_final: true, alternatives: [{ confidence: 0.92, transcript }] },
      }),
    silence: (call) => answerGather(call, { reason: 'timeout' }),
    async answer(call) {
      await setStatus(call, 'ringing');
      await setStatus(call, 'in-progress');
      await ask(call, call.callHook);
    },
    async fail(call, status) {
      call.hungUp = true;
      await setStatus(call, 'ringing');
      await setStatus(call, status);
    },
    async hangUp(call) {
      call.hungUp = true;
      await setStatus(call, 'completed');
    },
    async say(call, channel, transcript, final = true) {
      const transcribe = call.transfer?.transcribe as { transcriptionHook?: string } | undefined;
      if (!transcribe?.transcriptionHook)
        throw new Error(
          `call ${call.sid} has no transfer transcribed (its verbs: ${JSON.stringify(call.verbs)})`,
        );
      const answer = await post(new URL(transcribe.transcriptionHook, call.callHook).toString(), {
        ...info(call),
        speech: {
          language_code: 'en-US',
          channel_tag: channel,
          is_final: final,
          alternatives: [{ confidence: 0.9, transcript }],
        },
      });
      return answer.status;
    },
    async endTransfer(call) {
      const dial = call.transfer;
      const leg = call.leg;
      if (!dial || !leg) throw new Error(`call ${call.sid} is not transferred`);
      call.transfer = null;
      call.leg = undefined;
      leg.hungUp = true;
      await setStatus(leg, 'completed');
      if (dial.actionHook)
        return ask(call, new URL(String(dial.actionHook), call.callHook).toString(), {
          dial_call_status: 'completed',
          dial_sip_status: SIP_STATUS.completed,
          dial_call_sid: leg.sid,
        });
      call.hungUp = true;
      await setStatus(call, 'completed');
    },
    uploadRecording(call, bytes) {
      recordings.set(call.sid, bytes);
    },
    nextDial(status) {
      dialOutcomes.push(status);
    },
    calls: () => [...calls.values()].filter((c) => !c.parentSid),
    limitNext(count) {
      limited = count;
    },
    nextCallAnswers(...answers) {
      callAnswers.push(...answers);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
