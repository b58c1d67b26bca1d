import { z } from 'zod';

/**
 * What connecting a channel asks for, one schema per way of connecting: the server parses the
 * input with it (each field's error names the field), and the Channels tab renders its form
 * from it (`connectFields`): each field's label, hint and kind are registered beside its rule.
 */

export interface ConnectFieldMeta {
  label: string;
  hint?: string;
  placeholder?: string;
  /** Typed into a password input, never shown again once stored. */
  secret?: boolean;
  /** A choice: each value's label, shown as radio buttons. */
  options?: Record<string, string>;
  /** On or off, shown as a checkbox; its value in the form is `'true'` or `'false'` (`flag`). */
  checkbox?: boolean;
}

export const connectFieldMeta = z.registry<ConnectFieldMeta>();

export const connectTgInput = z.object({
  token: z
    .string()
    .trim()
    .regex(/^\d{1,20}:[A-Za-z0-9_-]{10,100}$/, {
      error: 'must look like 123456789:AAH… — copy the whole token from BotFather',
    })
    .register(connectFieldMeta, {
      label: 'Bot token',
      hint: 'From BotFather: 123456789:AAH…',
      placeholder: '123456789:AAH…',
    }),
  mode: z.enum(['webhook', 'polling']).register(connectFieldMeta, {
    label: 'Receive messages by',
    options: {
      webhook: 'Webhook — the messenger calls this server (needs a public https BLOCKBOT_BASE_URL)',
      polling: 'Long polling — this server asks the messenger (works without a public address)',
    },
  }),
});

const graphId = (what: string, where: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{5,25}$/, { error: `must be the ${what}: digits only, from ${where}` });

/** A Meta app's secret, which signs its webhooks (the Cloud API's and Instagram's). */
const metaAppSecret = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{32}$/i, {
    error: 'must be the app secret: 32 hexadecimal characters, from App settings → Basic',
  })
  .register(connectFieldMeta, {
    label: 'App secret',
    hint: 'Your Meta app → App settings → Basic → App secret.',
    secret: true,
  });

export const connectCloudInput = z.object({
  phoneNumberId: graphId(
    'phone number ID',
    'WhatsApp Manager → API Setup (not the phone number itself)',
  ).register(connectFieldMeta, {
    label: 'Phone number ID',
    hint: 'WhatsApp Manager → API Setup: the ID under the number, not the number itself.',
  }),
  businessAccountId: graphId('WhatsApp Business Account ID', 'WhatsApp Manager → API Setup').register(
    connectFieldMeta,
    { label: 'WhatsApp Business Account ID', hint: 'WhatsApp Manager → API Setup.' },
  ),
  accessToken: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,1024}$/, {
      error:
        'must be an access token (a system user’s permanent token, from Business Settings → System users)',
    })
    .register(connectFieldMeta, {
      label: 'Access token',
      hint: 'A system user’s permanent token with whatsapp_business_messaging (Business Settings → System users).',
      secret: true,
    }),
  appSecret: metaAppSecret,
});

/** An Instagram professional account connected through the Graph API (docs/channels/instagram.md). */
export const connectSocialInput = z.object({
  accountId: graphId(
    'Instagram account ID',
    'the Graph API (GET /me/accounts?fields=instagram_business_account)',
  ).register(connectFieldMeta, {
    label: 'Instagram account ID',
    hint: 'The professional account’s ID (instagram_business_account of its Page, or the ID under the account in the app’s Instagram settings).',
  }),
  accessToken: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,1024}$/, {
      error: 'must be an access token: the Page’s token (EAA…) or the Instagram account’s (IGAA…)',
    })
    .register(connectFieldMeta, {
      label: 'Access token',
      hint: 'A long-lived Page access token with instagram_manage_messages, or an Instagram token with instagram_business_manage_messages.',
      secret: true,
    }),
  appSecret: metaAppSecret,
});

export const connectGatewayInput = z.object({
  url: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, {
      error: 'must be the gateway’s address, like http://waha:3000 (http or https, no query)',
    })
    .register(connectFieldMeta, {
      label: 'Gateway address',
      hint: 'Where your WAHA server answers, like http://waha:3000. A private address must be allowed with BLOCKBOT_HTTP_ALLOW_HOSTS.',
      placeholder: 'http://waha:3000',
    }),
  apiKey: z
    .string()
    .trim()
    .min(1, { error: 'must be the gateway’s API key (its WAHA_API_KEY)' })
    .max(512, { error: 'must be at most 512 characters' })
    .register(connectFieldMeta, { label: 'API key', hint: 'The gateway’s WAHA_API_KEY.', secret: true }),
  session: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, {
      error: 'must be a session name: letters, digits, _ and -, like default',
    })
    .default('default')
    .register(connectFieldMeta, {
      label: 'Session name',
      hint: 'WAHA’s session: default unless you run several.',
    }),
});

export interface ConnectField {
  key: string;
  meta: ConnectFieldMeta;
  /** The value the form starts with (the schema's default, the first option, or empty). */
  initial: string;
  /** The schema takes it left out (it has a default): the form may be sent without it. */
  optional: boolean;
}

/** A connect schema's fields in order, as its form shows them. */
export function connectFields(schema: z.ZodObject): ConnectField[] {
  return Object.entries(schema.shape).map(([key, field]) => {
    const meta = connectFieldMeta.get(field as z.ZodType) ?? { label: key };
    const parsed = (field as z.ZodType).safeParse(undefined);
    const initial =
      parsed.success && typeof parsed.data === 'string'
        ? parsed.data
        : parsed.success && typeof parsed.data === 'boolean'
          ? String(parsed.data)
          : '';
    return {
      key,
      meta,
      initial: initial || (meta.options ? Object.keys(meta.options)[0] : ''),
      optional: parsed.success,
    };
  });
}

/**
 * An on/off setting, off unless given: true or false, or the form's checkbox value as text
 * (`'true'`, `'false'`; the form sends its values as typed). Register it with `checkbox: true`.
 */
export const flag = () =>
  z
    .union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })
    .transform((value) => value === true || value === 'true')
    .default(false);

const jambonzSid = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
      error: `must be the ${what}: a UUID like 9351f46a-678c-43f5-b8a6-d4eb58d131af, from the jambonz portal`,
    });
const phoneNumber = z
  .string()
  .trim()
  .regex(/^\+?[\d\s().-]{5,25}$/, { error: 'must be a phone number, like +1 415 555 2671' });

/** Telephony on a jambonz voice gateway (docs/channels/telephony.md). */
export const connectTelephonyInput = z.object({
  apiUrl: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, {
      error: 'must be the jambonz REST API’s address, like https://jambonz.example.com (no /v1)',
    })
    .register(connectFieldMeta, {
      label: 'jambonz API address',
      hint: 'Where the jambonz REST API answers, without /v1. A private address must be allowed with BLOCKBOT_HTTP_ALLOW_HOSTS.',
      placeholder: 'https://jambonz.example.com',
    }),
  accountSid: jambonzSid('account SID').register(connectFieldMeta, {
    label: 'Account SID',
    hint: 'The jambonz portal → Account.',
  }),
  apiKey: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{8,256}$/, { error: 'must be an API key of the account, from the jambonz portal' })
    .register(connectFieldMeta, {
      label: 'API key',
      hint: 'The jambonz portal → Account → API keys.',
      secret: true,
    }),
  applicationSid: jambonzSid('application SID').register(connectFieldMeta, {
    label: 'Application SID',
    hint: 'The jambonz application whose calling and call status webhooks are the addresses shown after connecting.',
  }),
  webhookSecret: z
    .string()
    .trim()
    .min(8, { error: 'must be the account’s webhook secret, from the jambonz portal → Account' })
    .max(256, { error: 'must be at most 256 characters' })
    .register(connectFieldMeta, {
      label: 'Webhook secret',
      hint: 'The jambonz portal → Account → Webhook secret: every webhook is checked against its signature.',
      secret: true,
    }),
  callerNumber: phoneNumber.register(connectFieldMeta, {
    label: 'Caller number',
    hint: 'The number outbound calls come from (a number of your carrier routed to this application).',
  }),
  voiceVendor: z
    .string()
    .trim()
    .regex(/^[a-z0-9_:-]{2,40}$/, {
      error: 'must be a speech vendor’s name as jambonz knows it, like google',
    })
    .default('google')
    .register(connectFieldMeta, {
      label: 'Speech vendor',
      hint: 'As configured in jambonz: google, aws, microsoft…',
    }),
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, { error: 'must be a language code like en-US' })
    .default('en-US')
    .register(connectFieldMeta, { label: 'Language', hint: 'What is spoken and recognised, like en-US.' }),
  voice: z
    .string()
    .trim()
    .max(100, { error: 'must be at most 100 characters' })
    .default('')
    .register(connectFieldMeta, { label: 'Voice', hint: 'The vendor’s voice name; empty for its default.' }),
  transferNumber: phoneNumber.or(z.literal('')).default('').register(connectFieldMeta, {
    label: 'Transfer number',
    hint: 'Where a call goes when the bot asks for an operator (ask_operator()); empty: the call stays with the bot.',
  }),
  transcribeTransfers: flag().register(connectFieldMeta, {
    label: 'Transcribe transfers',
    hint: 'What the caller and the operator say after a transfer is written into the conversation (jambonz’s transcribe, with the vendor and language above).',
    checkbox: true,
  }),
  keepRecordings: flag().register(connectFieldMeta, {
    label: 'Keep recordings',
    hint: 'When jambonz records calls to its storage (recording on the account or application), each call’s recording is fetched after it ends and kept in the conversation.',
    checkbox: true,
  }),
});

/**
 * A connected telephony channel's voice settings, changed on the Channels tab: the connect
 * form's fields for them, with their rules, labels and errors.
 */
export const telephonyVoiceInput = connectTelephonyInput.pick({
  voiceVendor: true,
  language: true,
  voice: true,
  transferNumber: true,
  transcribeTransfers: true,
  keepRecordings: true,
});
