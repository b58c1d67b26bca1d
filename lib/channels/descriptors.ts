import { phoneDigits } from './phone-numbers';

/**
 * The channel kinds, each described once: its client type number (bot-semantics §8), the name
 * the interface gives its messenger (`connected_channels`, the webhook's `messenger`), how the
 * screens call it and one of its clients, and what it can show. Every table of types, names,
 * labels and capabilities is derived from this list (lib/channels/descriptors.test.ts fails on
 * one written elsewhere); a new channel starts here (docs/architecture.md, "Add a channel").
 */

/** What a messenger can show of a block, for rendering, the simulator's preview and lint. */
export interface ChannelCapabilities {
  /** Shows buttons at all (else only the hint variant, numbered text, reaches the client). */
  buttons: boolean;
  /** Most buttons one message can carry, when limited. */
  maxButtons?: number;
  /** Longest button title it shows as a button, when limited (a longer one makes numbered text). */
  buttonTitleLength?: number;
  /** Longest text of one message, in characters, when limited (longer texts are split). */
  textLength?: number;
  /** Kinds of attachments it shows (`image`, `video`, `audio`, `document`). */
  media: readonly string[];
  /** Shows that the bot is typing. */
  typing: boolean;
  /** Needs a template message outside its customer service window. */
  templates: boolean;
}

export interface ChannelDescriptor {
  /** `Channel.kind`. */
  kind: 'tg' | 'widget' | 'chatapp' | 'social' | 'telephony' | 'viber' | 'simulator';
  clientType: number;
  /** The interface's name of the messenger. */
  apiName: string;
  /** The screens' name of the messenger. */
  label: string;
  /** What one of its clients is called while they have no name. */
  person: string;
  capabilities: ChannelCapabilities;
  /**
   * What its platform ids are: `phone` numbers are stored in E.164 without the plus, whatever
   * form (and messenger's suffix) they came in; `opaque` ids are kept as the messenger gave them.
   */
  platformIds: 'phone' | 'opaque';
  /** One client per number whatever line it called (telephony): `group_id` is always empty. */
  groupless?: true;
  /** Its group ids (tg's bot usernames) are one whatever their case: Shop_Bot and shop_bot are one bot. */
  caseInsensitiveGroups?: true;
  /** `connected_channels` gives each of its channels' status (a session gateway's pairing). */
  reportsStatus?: true;
  /**
   * How the Channels tab's summary counts its channels that reach clients ("2 tg bots"); a kind
   * without one (the simulator) never reaches a client.
   */
  reach?: { one: string; many: string };
  /**
   * The builder's own test chat: its channel is never listed nor connected, its clients are
   * simulated (messenger functions recorded, not carried out; analytics leave them out).
   */
  simulated?: true;
  /** Its setup page of the docs (`docs/<page>.md`), listed under "Talk to clients" (lib/docs/doc-index.ts). */
  doc?: { page: string; label: string; about: string };
}

const ALL_MEDIA = ['image', 'video', 'audio', 'document'] as const;

export const CHANNEL_DESCRIPTORS = [
  {
    kind: 'tg',
    doc: { page: 'channels/tg', label: 'tg messenger', about: 'Connecting a bot of the tg messenger.' },
    clientType: 1,
    apiName: 'tg',
    label: 'Telegram',
    person: 'Telegram user',
    // A keyboard holds at most 100 buttons; long texts are split (lib/tg/render.ts).
    platformIds: 'opaque',
    caseInsensitiveGroups: true,
    reach: { one: 'tg bot', many: 'tg bots' },
    capabilities: {
      buttons: true,
      maxButtons: 100,
      textLength: 4096,
      media: ALL_MEDIA,
      typing: true,
      templates: false,
    },
  },
  {
    kind: 'widget',
    doc: {
      page: 'channels/widget',
      label: 'Chat widget',
      about: 'A chat on your website, with one script tag.',
    },
    clientType: 5,
    apiName: 'online_chat',
    label: 'Web widget',
    person: 'Website visitor',
    platformIds: 'opaque',
    reach: { one: 'chat widget on your website', many: 'chat widgets on your websites' },
    capabilities: { buttons: true, media: ALL_MEDIA, typing: true, templates: false },
  },
  {
    kind: 'chatapp',
    doc: {
      page: 'channels/chatapp',
      label: 'Chat-app messenger',
      about: 'Connecting a WhatsApp number through the Cloud API.',
    },
    clientType: 6,
    apiName: 'chatapp',
    label: 'Chat app',
    person: 'Chat app user',
    // Up to 3 reply buttons of 20 characters, or a list of up to 10 rows of 24; past that,
    // numbered text (lib/chatapp/cloud-render.ts).
    platformIds: 'phone',
    reportsStatus: true,
    reach: { one: 'chat-app number', many: 'chat-app numbers' },
    capabilities: {
      buttons: true,
      maxButtons: 10,
      buttonTitleLength: 24,
      textLength: 4096,
      media: ALL_MEDIA,
      typing: true,
      templates: true,
    },
  },
  {
    kind: 'social',
    doc: {
      page: 'channels/instagram',
      label: 'Instagram Direct',
      about: 'Connecting an Instagram account: its Meta app, the window rule, the subscription check.',
    },
    clientType: 10,
    apiName: 'social',
    label: 'Social',
    person: 'Social network user',
    // Instagram Direct: up to 13 quick replies of 20 characters (past them numbered text), texts of
    // 1,000 bytes of UTF-8, not characters (lib/social/instagram-render.ts).
    platformIds: 'opaque',
    reach: { one: 'Instagram account', many: 'Instagram accounts' },
    capabilities: {
      buttons: true,
      maxButtons: 13,
      buttonTitleLength: 20,
      textLength: 1000,
      media: ALL_MEDIA,
      typing: true,
      templates: false,
    },
  },
  {
    kind: 'telephony',
    doc: {
      page: 'channels/telephony',
      label: 'Voice calls (telephony)',
      about: 'Voice calls on a jambonz gateway: blocks spoken, buttons as keys to press.',
    },
    clientType: 13,
    apiName: 'telephony',
    label: 'Telephony',
    person: 'Caller',
    // Spoken; buttons become the digits 1-9 to press or say (lib/telephony/verbs.ts); no media.
    platformIds: 'phone',
    groupless: true,
    reach: { one: 'telephony line', many: 'telephony lines' },
    capabilities: { buttons: true, maxButtons: 9, media: [], typing: false, templates: false },
  },
  {
    kind: 'viber',
    doc: {
      page: 'channels/viber',
      label: 'Viber',
      about: 'Connecting a Viber bot by its token: keyboards, files, subscriptions.',
    },
    clientType: 2,
    apiName: 'viber',
    label: 'Viber',
    person: 'Viber user',
    // A keyboard of up to 24 buttons whose texts fit 250 characters, else numbered text; texts of
    // 7,000 characters; audio and other files go as files (lib/viber/render.ts).
    platformIds: 'opaque',
    reach: { one: 'Viber bot', many: 'Viber bots' },
    capabilities: {
      buttons: true,
      maxButtons: 24,
      buttonTitleLength: 250,
      textLength: 7000,
      media: ALL_MEDIA,
      typing: false,
      templates: false,
    },
  },
  {
    kind: 'simulator',
    clientType: 99,
    apiName: 'simulator',
    label: 'Simulator',
    person: 'Test client',
    platformIds: 'opaque',
    simulated: true,
    capabilities: { buttons: true, media: ALL_MEDIA, typing: true, templates: false },
  },
] as const satisfies readonly ChannelDescriptor[];

type Kind = (typeof CHANNEL_DESCRIPTORS)[number]['kind'];

/** Each kind's client type number: `CLIENT_TYPES.tg` is 1. */
export const CLIENT_TYPES = Object.fromEntries(CHANNEL_DESCRIPTORS.map((d) => [d.kind, d.clientType])) as {
  [K in Kind]: Extract<(typeof CHANNEL_DESCRIPTORS)[number], { kind: K }>['clientType'];
};

const byType = new Map<number, ChannelDescriptor>(CHANNEL_DESCRIPTORS.map((d) => [d.clientType, d]));
const byKind = new Map<string, ChannelDescriptor>(CHANNEL_DESCRIPTORS.map((d) => [d.kind, d]));

export const descriptorOfType = (clientType: number): ChannelDescriptor | undefined => byType.get(clientType);
export const descriptorOfKind = (kind: string): ChannelDescriptor | undefined => byKind.get(kind);

/**
 * A channel's status as the interface names it (`connected_channels`, `Channel.status`):
 * 0 NOT_STARTED, 1 STARTED (receiving), 2 ASLEEP, 3 STOPPED (a revoked token, a closed session).
 */
export const CHANNEL_STATUS = { notStarted: 0, started: 1, asleep: 2, stopped: 3 } as const;

/** The client types whose platform ids are phone numbers (a client found by phone is one of theirs). */
export const PHONE_CLIENT_TYPES: readonly number[] = CHANNEL_DESCRIPTORS.filter(
  (d) => d.platformIds === 'phone',
).map((d) => d.clientType);

/** The simulator's client type: its clients are the builder's tests, not real people. */
export const SIMULATED_CLIENT_TYPE: number =
  CHANNEL_DESCRIPTORS.find((d) => 'simulated' in d)?.clientType ?? -1;
export const isSimulatedType = (clientType: number): boolean => clientType === SIMULATED_CLIENT_TYPE;

/** The kinds whose channels are the project's real ones (listed, connected): all but the simulator. */
export const CONNECTABLE_KINDS: readonly string[] = CHANNEL_DESCRIPTORS.flatMap((d) =>
  'simulated' in d ? [] : [d.kind],
);

/** Its group ids compared as the messenger does (tg's bot usernames regardless of case). */
export const groupIdsCaseInsensitive = (clientType: number): boolean =>
  byType.get(clientType)?.caseInsensitiveGroups === true;

/** The interface's name of a client type's messenger (`tg`, `online_chat`…), or the number as text. */
export const messengerApiName = (clientType: number): string =>
  byType.get(clientType)?.apiName ?? String(clientType);

/**
 * A client's identity in its channel as it is stored and looked up: phone numbers in one form,
 * and no line for a groupless channel's clients.
 */
export function clientIdentity(ref: { clientType: number; groupId: string; platformId: string }): {
  groupId: string;
  platformId: string;
} {
  const descriptor = byType.get(ref.clientType);
  return {
    groupId: descriptor?.groupless ? '' : ref.groupId,
    platformId: descriptor?.platformIds === 'phone' ? phoneDigits(ref.platformId) : ref.platformId,
  };
}
